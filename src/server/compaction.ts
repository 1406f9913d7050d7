import * as crypto from 'node:crypto';
import { type AnyInputItem, type Compaction, type ContextManagement, isUserMessage } from '../protocol';
import { type Refusal, refusals } from './apiErrors';
import { sealCompaction } from './compactionSeal';
import { type ContextState, type CountedContext, extendContext } from './contextState';
import { locateStep } from './contextSteps';
import { renderItem } from './renderContext';

// Compaction, honestly (docs/backend.md, "Compaction"): a context becomes its user messages, kept as they
// are, and one `compaction` item whose sealed digest is the model's summary of everything else — a fixed
// fraction of it, counted by the same tokenizer — so a compacted context really is cheaper to read, render
// and hold. The seal also carries where the conversation stands (contextSteps.ts), so a scripted scenario
// plays on to its last step however often it is compacted.

/** The digest's share of what it replaces: each replaced item contributes the head of its rendered text. */
export const SUMMARY_RATIO = 0.1;

/** `context_management` compaction without a `compact_threshold` compacts past this share of the window. */
export const DEFAULT_COMPACT_AT = 0.8;

/** A compaction: the item, the context it leaves (header, kept user messages, the item) and its figures. */
export interface CompactedContext {
  item: Compaction & { id: string };
  /** The user messages kept, as they were given. */
  kept: AnyInputItem[];
  /** The compacted context, counted from the header. */
  counted: CountedContext;
  /** Tokens of the items the compaction replaced. */
  replacedTokens: number;
  /** Tokens of the compaction item as the model reads it. */
  summaryTokens: number;
}

/** The threshold a request's `context_management` asks to compact past, or undefined when it asks for none. */
export function compactThreshold(
  management: readonly ContextManagement[] | null | undefined,
  contextWindow: number,
): number | undefined {
  const entry = management?.find((candidate) => candidate.type === 'compaction');
  if (!entry) return undefined;
  return entry.compact_threshold ?? Math.floor(contextWindow * DEFAULT_COMPACT_AT);
}

/**
 * What the API refuses in `context_management`: an entry of a type it does not support (only `compaction`
 * exists), or a `compact_threshold` that is no whole number of tokens.
 */
export function contextManagementRefusal(
  management: readonly ContextManagement[] | null | undefined,
): Refusal | undefined {
  for (const [index, entry] of (management ?? []).entries()) {
    if (entry.type !== 'compaction') return refusals.unsupportedContextManagement(index, entry.type);
    const threshold = entry.compact_threshold;
    if (typeof threshold === 'number' && !Number.isInteger(threshold)) return refusals.fractionalThreshold(index);
  }
  return undefined;
}

/** The first SUMMARY_RATIO of `text`, never cutting a surrogate pair in two. */
function head(text: string): string {
  let end = Math.ceil(text.length * SUMMARY_RATIO);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * Compacts `state` (counted with `header`). With nothing but user messages there is nothing to replace: then
 * undefined, unless `always` (`/v1/responses/compact` answers with a compaction item whatever it is given).
 * The item's id and content follow from what it stands for, so the same context always compacts to the same
 * item.
 */
export function compactContext(state: ContextState, header: string, always = false): CompactedContext | undefined {
  const kept = state.items.filter(isUserMessage);
  const replaced = state.items.filter((item) => !isUserMessage(item));
  if (replaced.length === 0 && !always) return undefined;
  const located = locateStep(state.items);
  const digest = replaced.map((item) => head(renderItem(item))).join('\n');
  const payload = { prompt: located?.prompt ?? null, responses: located ? located.step - 1 : 0, digest };
  const id = `cmp_${crypto.createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 24)}`;
  const item = { type: 'compaction' as const, id, encrypted_content: sealCompaction({ id, ...payload }) };
  const counted = extendContext(undefined, header, [...kept, item]);
  const total = counted.cumulative.at(-1) ?? counted.state.headerTokens;
  const beforeItem = counted.cumulative.at(-2) ?? counted.state.headerTokens;
  return {
    item,
    kept,
    counted,
    replacedTokens: state.itemTokens - (beforeItem - counted.state.headerTokens),
    summaryTokens: total - beforeItem,
  };
}
