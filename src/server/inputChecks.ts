import type { AnyInputItem, ResponseRequest } from '../protocol';
import { type Refusal, refusals } from './apiErrors';
import { openCompaction } from './compactionSeal';
import { checkImages } from './imageInput';
import { openReasoning } from './reasoningSeal';

// What the API refuses in a request's input, checked the same way for every transport (docs/backend.md,
// "What it refuses"). Always on: a client that passes here does not trip over these refusals in production.

/**
 * A generating request (or a compaction) must give the model something: `input`, or a `previous_response_id`
 * to continue.
 */
export function missingInput(
  request: Pick<ResponseRequest, 'generate' | 'previous_response_id'> & { input?: ResponseRequest['input'] | null },
): Refusal | undefined {
  if (request.generate === false || (request.previous_response_id ?? undefined) !== undefined) return undefined;
  if (request.input == null) return refusals.missingInput();
  if (Array.isArray(request.input) && request.input.length === 0) return refusals.emptyInput();
  return undefined;
}

type CallType = 'function_call' | 'custom_tool_call';
type OutputType = 'function_call_output' | 'custom_tool_call_output';
const ANSWERS: Record<OutputType, CallType> = {
  function_call_output: 'function_call',
  custom_tool_call_output: 'custom_tool_call',
};

function field(item: AnyInputItem, name: string): unknown {
  return (item as Record<string, unknown>)[name];
}

function isOutputType(type: unknown): type is OutputType {
  return type === 'function_call_output' || type === 'custom_tool_call_output';
}

/**
 * Checks `input` against the `context` it extends (the chain's items, outputs included) and returns the
 * first refusal in input order: a tool output whose `call_id` answers no call of its kind before it, or a
 * reasoning or compaction item whose `encrypted_content` this server did not issue for that item. A malformed
 * image data URL comes first: the API refuses it while validating the request, before it reads the context.
 */
export function checkInput(context: readonly AnyInputItem[], input: readonly AnyInputItem[]): Refusal | undefined {
  const image = checkImages(input);
  if (image) return image;
  const key = (type: CallType, callId: unknown) => `${type}\u0000${String(callId)}`;
  const seen = new Set<string>();
  /** Outputs whose call is not earlier in `input`: it must be in the context. */
  const pending: { key: string; output: OutputType; callId: string }[] = [];
  let refused: Refusal | undefined;
  for (const item of input) {
    const type = field(item, 'type');
    if (type === 'function_call' || type === 'custom_tool_call') seen.add(key(type, field(item, 'call_id')));
    else if (isOutputType(type)) {
      const callId = String(field(item, 'call_id'));
      const wanted = key(ANSWERS[type], callId);
      if (!seen.has(wanted)) pending.push({ key: wanted, output: type, callId });
    } else if (type === 'reasoning' || type === 'compaction') {
      refused = checkSealed(item, type === 'reasoning' ? openReasoning : openCompaction);
      if (refused) break;
    }
  }
  if (pending.length === 0) return refused;
  // The calls being answered are usually the context's last items: scan from the end, stop when all are found.
  const missing = new Set(pending.map((entry) => entry.key));
  for (let index = context.length - 1; index >= 0 && missing.size > 0; index--) {
    const item = context[index] as AnyInputItem;
    const type = field(item, 'type');
    if (type === 'function_call' || type === 'custom_tool_call') missing.delete(key(type, field(item, 'call_id')));
  }
  // Every pending output came before the reasoning item that failed (if one did), so it is reported first.
  const orphan = pending.find((entry) => missing.has(entry.key));
  return orphan ? refusals.noToolCall(orphan.output, orphan.callId) : refused;
}

/**
 * A generating request asks the model to go on from its context (the chain's items, then `input`): every tool
 * call there must have its output after it, or the API refuses the request. The first call left unanswered.
 */
export function unansweredCall(context: readonly AnyInputItem[], input: readonly AnyInputItem[]): Refusal | undefined {
  const key = (type: CallType, callId: string) => `${type}\u0000${callId}`;
  const open = new Map<string, { type: CallType; callId: string }>();
  for (const items of [context, input])
    for (const item of items) {
      const type = field(item, 'type');
      if (type === 'function_call' || type === 'custom_tool_call') {
        const callId = String(field(item, 'call_id'));
        if (!open.has(key(type, callId))) open.set(key(type, callId), { type, callId });
      } else if (isOutputType(type)) open.delete(key(ANSWERS[type], String(field(item, 'call_id'))));
    }
  const [first] = open.values();
  return first ? refusals.noToolOutput(first.type, first.callId) : undefined;
}

/**
 * A replayed reasoning or compaction item: its `encrypted_content`, when it has one, must be what this server
 * issued for it (`open` reads that kind's seal). A compaction's is required by its schema.
 */
function checkSealed(item: AnyInputItem, open: (content: string) => { id: string } | undefined): Refusal | undefined {
  const content = field(item, 'encrypted_content');
  // Absent or null: nothing to verify (the schema admits only a string otherwise).
  if (typeof content !== 'string') return undefined;
  const id = field(item, 'id');
  const itemId = typeof id === 'string' ? id : undefined;
  const sealed = open(content);
  if (!sealed)
    return refusals.invalidEncryptedContent(itemId, content, 'Encrypted content could not be decrypted or parsed.');
  if (itemId !== undefined && sealed.id !== itemId)
    return refusals.invalidEncryptedContent(
      itemId,
      content,
      'Encrypted content item_id did not match the target item id.',
    );
  return undefined;
}
