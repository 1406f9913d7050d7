import type { AnyOutputItem, SteerErrorCode, SteerRequiredInput } from '../protocol';

// The steering events the server sends (docs/protocol.md §13.1), less `sequence_number` and `stream_id`,
// which the stream they go out in adds. Their shapes are the schemas of src/protocol/steering.ts; the server's
// tests parse every one it sends.

/** A steering submission once the server has given it an id. */
export interface SteerRef {
  id: string;
  previous_response_id: string;
}

export function steerAccepted(steer: SteerRef): Record<string, unknown> {
  return { type: 'response.steer.accepted', steer };
}

/** The response stopped for client-owned results: `required` names them, and the steer stays queued. */
export function steerPending(steer: SteerRef, required: readonly SteerRequiredInput[]): Record<string, unknown> {
  return { type: 'response.steer.pending', reason: 'waiting_for_required_input', required_input: required, steer };
}

/** The input comes back uncommitted; `id` only once the steer had one (a failure after `accepted`). */
export function steerFailed(
  code: SteerErrorCode,
  message: string,
  steer: { previous_response_id: string; input: unknown; id?: string },
): Record<string, unknown> {
  return { type: 'response.steer.failed', error: { code, message, type: 'invalid_request_error' }, steer };
}

/**
 * The stubs of the calls in `output`, which the client runs and answers: every call of a response that ends
 * is unanswered, since its outputs can only come in a later request.
 */
export function requiredInputOf(output: readonly AnyOutputItem[]): SteerRequiredInput[] {
  return output.flatMap((item): SteerRequiredInput[] => {
    const { type, call_id: callId, name } = item as { type: string; call_id?: unknown; name?: unknown };
    if (typeof callId !== 'string') return [];
    if (type === 'function_call') return [{ type: 'function_call_output', call_id: callId, name: String(name) }];
    if (type === 'custom_tool_call') return [{ type: 'custom_tool_call_output', call_id: callId }];
    return [];
  });
}

/**
 * What a steering event's line adds (docs/backend.md, "Wire log"; wsConnection.ts logs it): the steer's id, the response it targets
 * and, for a failure, its code, so that a steer can be followed from `response.steer` to its commit or return.
 */
export function steerFields(event: Record<string, unknown>): Record<string, unknown> {
  if (typeof event.type !== 'string' || !event.type.startsWith('response.steer.')) return {};
  const steer = (event.steer ?? {}) as { id?: unknown; previous_response_id?: unknown };
  const code = (event.error as { code?: unknown } | undefined)?.code;
  return {
    ...(typeof steer.id === 'string' ? { steer_id: steer.id } : {}),
    previous_response_id: steer.previous_response_id,
    ...(code === undefined ? {} : { code }),
  };
}
