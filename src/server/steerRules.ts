import {
  type AnyInputItem,
  type ResponseCreateEvent,
  type ResponseSteerEvent,
  ResponseSteerEvent as SteerSchema,
  parseWire,
} from '../protocol';
import { type Refusal, refusals } from './apiErrors';

// What the API takes in a `response.steer` and on which responses (docs/protocol.md §13.2), as the SDK's doc
// comments state it: the rules, apart from the bookkeeping of steerDesk.ts.

/** How a steer frame reads. */
export type SteerReading =
  /** A steer to queue: the event, and its input as the user messages a successor's input gets. */
  | { kind: 'steer'; event: ResponseSteerEvent; items: AnyInputItem[] }
  /** A steer that breaks a rule: answered `response.steer.failed` / `invalid_input`, its input returned. */
  | { kind: 'invalid'; previousId: string; input: string | unknown[]; message: string }
  /** Not a steer at all (no target, or no input to return): answered with an `error` event. */
  | { kind: 'malformed'; refusal: Refusal };

/** Reads a `response.steer` frame: only `type`, `previous_response_id` and `input`, and only user messages. */
export function readSteer(frame: Record<string, unknown>): SteerReading {
  const previousId = frame.previous_response_id;
  const input = frame.input;
  // A `response.steer.failed` names its target and returns its input: without either it cannot be sent.
  if (typeof previousId !== 'string' || previousId === '')
    return malformed("Missing required parameter: 'previous_response_id'.", 'previous_response_id');
  if (typeof input !== 'string' && !Array.isArray(input))
    return malformed("Invalid 'input': expected a string or an array of user messages.", 'input');
  const invalid = (message: string): SteerReading => ({ kind: 'invalid', previousId, input, message });
  if (input.length === 0) return invalid("Invalid 'input': steering input must not be empty.");
  const toolOutput = Array.isArray(input) ? input.findIndex(isToolOutput) : -1;
  if (toolOutput >= 0)
    return invalid(
      `Invalid 'input[${toolOutput}]': steering accepts only user messages; send tool outputs in response.create.`,
    );
  const parsed = parseWire(SteerSchema, frame);
  if (!parsed.ok) return invalid(parsed.error.message);
  return { kind: 'steer', event: parsed.value, items: steerItems(parsed.value.input) };
}

/**
 * Why the response that `request` started cannot be steered, or undefined when it can: only the GPT-6 family
 * steers (the API's guide), and a response under automatic compaction does not.
 */
export function steeringUnsupported(request: Pick<ResponseCreateEvent, 'model' | 'context_management'>) {
  const model = request.model ?? '';
  if (!model.startsWith('gpt-6')) return `The model '${model}' does not support steering.`;
  if (request.context_management?.some((entry) => entry.type === 'compaction'))
    return 'Responses using context_management compaction do not support steering.';
  return undefined;
}

/** A steer's input as items: a string is one user message, each message gets its `type`, nothing else. */
function steerItems(input: ResponseSteerEvent['input']): AnyInputItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return input.flatMap((item): AnyInputItem[] =>
    item.type === 'function_call_output' ? [] : [{ type: 'message', role: 'user', content: item.content }],
  );
}

function isToolOutput(item: unknown): boolean {
  return typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'function_call_output';
}

function malformed(message: string, param: string): SteerReading {
  return { kind: 'malformed', refusal: refusals.invalidBody({ code: 'invalid_value', message, param }) };
}
