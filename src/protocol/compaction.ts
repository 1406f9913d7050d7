import * as z from 'zod';
import { AnyInputItem } from './items';
import { Usage } from './response';

// Compaction on request (docs/protocol.md §3.7): `POST /v1/responses/compact` folds a context into the user
// messages and one `compaction` item, which the client then sends as the start of its next input. The
// automatic kind rides on `response.create` (`context_management`, in request.ts); the item is in items.ts.

/**
 * The body of `POST /v1/responses/compact` (the SDK's `ResponseCompactParams`): the context to compact, as
 * `input`, as a stored `previous_response_id`, or both (the input then continues that response). Loose, like
 * every request: fields this version does not model are kept and passed over. A server refuses a body without
 * `model`, or with neither `input` nor `previous_response_id`.
 */
export const CompactRequest = z.looseObject({
  model: z.string().min(1).nullish(),
  input: z.union([z.string(), z.array(AnyInputItem)]).nullish(),
  instructions: z.string().nullish(),
  previous_response_id: z.string().min(1).nullish(),
  prompt_cache_key: z.string().nullish(),
  service_tier: z.string().nullish(),
});

/**
 * The answer of `POST /v1/responses/compact` (the SDK's `CompactedResponse`): `output` is every user message
 * of the context, in order, followed by one `compaction` item — items to send back as input, which is why they
 * are typed as input items (the user messages are `input_text` messages). `usage` accounts for the pass: the
 * context read as input, the compaction written as output.
 */
export const CompactedResponse = z.looseObject({
  id: z.string().min(1),
  object: z.literal('response.compaction'),
  created_at: z.number(),
  output: z.array(AnyInputItem),
  usage: Usage,
});

/** A user's message (the kind a compaction keeps as it is). */
export function isUserMessage(item: AnyInputItem): boolean {
  const record = item as { type?: unknown; role?: unknown };
  return (record.type === undefined || record.type === 'message') && record.role === 'user';
}

export function isCompaction(item: AnyInputItem): item is AnyInputItem & { type: 'compaction' } {
  return (item as { type?: unknown }).type === 'compaction';
}

/**
 * A context as the model reads it: everything before its latest compaction item but the user messages is
 * what that compaction stands for, so it goes. The server reads every request this way, and a client builds
 * its full-context requests this way: the same items, whether it chains or resends.
 */
export function normalizeContext(items: readonly AnyInputItem[]): readonly AnyInputItem[] {
  let last = items.length - 1;
  while (last >= 0 && !isCompaction(items[last] as AnyInputItem)) last--;
  if (last <= 0) return items;
  const before = items.slice(0, last);
  if (before.every(isUserMessage)) return items;
  return [...before.filter(isUserMessage), ...items.slice(last)];
}

export type CompactRequest = z.infer<typeof CompactRequest>;
export type CompactedResponse = z.infer<typeof CompactedResponse>;
