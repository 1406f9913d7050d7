import * as z from 'zod';
import { AnyToolOutputPart, InputFile, InputImage, InputText } from './contentParts';
import { ItemStatus } from './items';
import { openUnion } from './openUnion';
import { streamEvent } from './streamEvent';

// Steering a running response over its socket (docs/protocol.md §13), shape for shape as the SDK's types
// give them (openai 7.55, `resources/responses/responses.ts`: `ResponseSteerEvent`, `ResponseSteer*Event`,
// `ResponseSteerErrorCode`); test/unit/protocol/steeringShapes.test.ts holds the two together. The rules
// the SDK states in prose (only user messages, the commit point, `required_input`) are the server's to
// apply, and are written down in §13.

/** A content part of a steering message: text, an image or a file, as in a user message. */
export const SteerInputContent = z.discriminatedUnion('type', [InputText, InputImage, InputFile]);

/**
 * A user message to steer with. Only these fields are allowed (the SDK's doc comment; `id` and `status` are
 * in its type). The type requires `type: "message"` where the doc comment calls it optional: it is optional
 * here, so that both readings are taken.
 */
export const SteerMessage = z.strictObject({
  type: z.literal('message').optional(),
  role: z.literal('user'),
  content: z.union([z.string(), z.array(SteerInputContent)]),
  id: z.string().nullish(),
  status: z.string().nullish(),
});

/**
 * A function call's output, which the SDK's type admits in a steer's input although its doc comment says
 * steering takes user messages only: parsed so that it can be refused by name (`invalid_input`). Unlike a
 * `response.create` input's, its `call_id` is optional in the type.
 */
export const SteerFunctionCallOutput = z.looseObject({
  type: z.literal('function_call_output'),
  output: z.union([z.string(), z.array(AnyToolOutputPart)]),
  id: z.string().nullish(),
  call_id: z.string().nullish(),
  caller: z
    .discriminatedUnion('type', [
      z.looseObject({ type: z.literal('direct') }),
      z.looseObject({ type: z.literal('program'), caller_id: z.string() }),
    ])
    .nullish(),
  name: z.string().nullish(),
  namespace: z.string().nullish(),
  status: ItemStatus.nullish(),
});

/** What a steer carries (`ResponseSteerInput`): a string, or items, a non-empty array by the SDK's rule. */
export const ResponseSteerInput = z.union([z.string(), z.array(z.union([SteerMessage, SteerFunctionCallOutput]))]);

/**
 * C→S `response.steer`: queue `input` for the running response `previous_response_id` on this socket.
 * Exactly these three fields: no `stream_id`, since the target response's lane is used.
 */
export const ResponseSteerEvent = z.strictObject({
  type: z.literal('response.steer'),
  previous_response_id: z.string(),
  input: ResponseSteerInput,
});

/** The steering error codes the SDK knows (`ResponseSteerErrorCode`); a client must take others too. */
export const SteerErrorCode = z.enum([
  /** The target response is not available on this connection. */
  'response_not_found',
  /** The event or its input failed validation. */
  'invalid_input',
  /** The model, or the response's execution mode (compaction), does not steer. */
  'steering_not_supported',
  /** Too much steering input is pending for the response. */
  'too_many_pending_steers',
  /** The response completed and is no longer accepting steering input. */
  'response_already_completed',
  /** The response is no longer accepting steering input. */
  'response_not_active',
  /** The successor response could not be created. */
  'successor_creation_failed',
]);

/** A steering error code as a client reads it: a known one or any other string (`(string & {})` in the SDK). */
export const ResponseSteerErrorCode = z.union([SteerErrorCode, z.string()]);

/** Why accepted steering input is still queued (`ResponseSteerPendingReason`): the one known value, or another. */
export const ResponseSteerPendingReason = z.union([z.literal('waiting_for_required_input'), z.string()]);

/** A stub that names a call or approval by its id alone; the client fills in the result. */
function requiredStub<const T extends string>(type: T) {
  return z.looseObject({ type: z.literal(type), call_id: z.string() });
}

/**
 * One outstanding client-owned result a steered response waits for (`ResponseSteerRequiredInput`): copy it,
 * fill in the result with the `response.create` input schema of its type, and send it without rerunning
 * the tool.
 */
export const SteerRequiredInput = z.discriminatedUnion('type', [
  requiredStub('function_call_output').extend({ name: z.string() }),
  requiredStub('custom_tool_call_output'),
  requiredStub('computer_call_output'),
  requiredStub('shell_call_output'),
  requiredStub('apply_patch_call_output'),
  requiredStub('tool_search_output').extend({ execution: z.literal('client') }),
  z.looseObject({ type: z.literal('mcp_approval_response'), approval_request_id: z.string() }),
]);
/** A required-input stub: a modelled one, or a newer kind kept as given. */
export const AnySteerRequiredInput = openUnion(SteerRequiredInput);

/** The steering submission an accepted or pending event is about: its id, and the response it targets. */
const acceptedSteer = z.looseObject({ id: z.string(), previous_response_id: z.string() });

/**
 * S→C `response.steer.accepted`: the server owns the input now. Not a commit: the successor's
 * `response.created` is, and until then the input may still come back in `response.steer.failed`.
 */
export const ResponseSteerAcceptedEvent = streamEvent('response.steer.accepted', { steer: acceptedSteer });

/**
 * S→C `response.steer.pending`, after `response.completed`: the response stopped for client-owned results
 * (`required_input`) and the accepted input is still queued. Do not resend it: send one `response.create`
 * with the filled stubs and the same `previous_response_id`; the queued input is put before its input.
 */
export const ResponseSteerPendingEvent = streamEvent('response.steer.pending', {
  reason: ResponseSteerPendingReason,
  required_input: z.array(AnySteerRequiredInput),
  steer: acceptedSteer,
});

/**
 * S→C `response.steer.failed`: the input was refused, or accepted and then could not be committed. It comes
 * back in `steer.input` for the client to send itself. `steer.id` is there once one was allocated (a
 * failure after `accepted`). The input is returned as it was sent, so after `invalid_input` it may be items
 * that are no steer input (a developer message): those are kept as given.
 */
export const ResponseSteerFailedEvent = streamEvent('response.steer.failed', {
  error: z.looseObject({
    code: ResponseSteerErrorCode,
    message: z.string(),
    type: z.literal('invalid_request_error'),
  }),
  steer: z.looseObject({
    input: z.union([ResponseSteerInput, z.array(z.unknown())]),
    previous_response_id: z.string(),
    id: z.string().optional(),
  }),
});

/** `incomplete_details.reason` of a response that a steer ended early, at a safe boundary. */
export const STEERED_REASON = 'steered';

export type SteerInputContent = z.infer<typeof SteerInputContent>;
export type SteerMessage = z.infer<typeof SteerMessage>;
export type SteerFunctionCallOutput = z.infer<typeof SteerFunctionCallOutput>;
export type ResponseSteerInput = z.infer<typeof ResponseSteerInput>;
export type ResponseSteerEvent = z.infer<typeof ResponseSteerEvent>;
export type SteerErrorCode = z.infer<typeof SteerErrorCode>;
export type ResponseSteerErrorCode = z.infer<typeof ResponseSteerErrorCode>;
export type ResponseSteerPendingReason = z.infer<typeof ResponseSteerPendingReason>;
export type SteerRequiredInput = z.infer<typeof SteerRequiredInput>;
export type AnySteerRequiredInput = z.infer<typeof AnySteerRequiredInput>;
export type ResponseSteerAcceptedEvent = z.infer<typeof ResponseSteerAcceptedEvent>;
export type ResponseSteerPendingEvent = z.infer<typeof ResponseSteerPendingEvent>;
export type ResponseSteerFailedEvent = z.infer<typeof ResponseSteerFailedEvent>;
