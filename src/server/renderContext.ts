import * as crypto from 'node:crypto';
import { countTokens } from './tokenizer';
import type { AnyInputItem, AnyTool } from '../protocol';
import { openCompaction } from './compactionSeal';
import { itemImages } from './imageInput';

// The model's view of a context, as text, counted with the o200k_base BPE: the real per-request work whose
// cost differs between a full-context request and a chained one. A chat template's exact markup does not
// matter here; what matters is that every transport renders and counts the same items the same way.

/** Text of a message's content, a tool output, or any part list. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const record = part as Record<string, unknown>;
      for (const key of ['text', 'refusal'] as const) if (typeof record[key] === 'string') return record[key];
      return `[${String(record.type)}]`;
    })
    .join('\n');
}

/** One item as the model reads it. */
export function renderItem(item: AnyInputItem): string {
  const record = item as Record<string, unknown>;
  switch (record.type) {
    case undefined:
    case 'message':
      return `<|${String(record.role)}|>${partsText(record.content)}`;
    case 'function_call':
      return `<|call|>${String(record.name)}(${String(record.arguments)})`;
    case 'custom_tool_call':
      return `<|call|>${String(record.name)}:${String(record.input)}`;
    case 'function_call_output':
    case 'custom_tool_call_output':
      return `<|output|>${partsText(record.output)}`;
    case 'reasoning':
      return `<|reasoning|>${partsText(record.summary)}${partsText(record.content)}${typeof record.encrypted_content === 'string' ? record.encrypted_content : ''}`;
    case 'compaction': {
      // The model reads what the compaction stands for (its digest), not the sealed text: that is what makes a
      // compacted context cheap. Content that does not open is refused before rendering (inputChecks.ts).
      const content = typeof record.encrypted_content === 'string' ? record.encrypted_content : '';
      return `<|compaction|>${openCompaction(content)?.digest ?? content}`;
    }
    default:
      return JSON.stringify(item);
  }
}

/** What precedes the items: the request's instructions and tool definitions (never inherited). */
export function renderHeader(
  instructions: string | null | undefined,
  tools: readonly AnyTool[] | null | undefined,
): string {
  return `<|instructions|>${instructions ?? ''}<|tools|>${tools && tools.length > 0 ? JSON.stringify(tools) : ''}`;
}

/** A run of this many characters without whitespace is counted in windows (see countText). */
const LONG_RUN = 1000;
const WINDOW = 256;

/**
 * Tokens of `text`. BPE on one unbroken run is quadratic in its length (100k characters of one letter take
 * 8 s), so a single hostile or minified input would stall every connection: runs of LONG_RUN or more
 * characters without whitespace are counted in WINDOW-sized pieces — linear, and within a few tokens per
 * window of the exact count.
 */
export function countText(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < LONG_RUN) return countTokens(text);
  let total = 0;
  let last = 0;
  for (const run of text.matchAll(/\S{1000,}/g)) {
    if (run.index > last) total += countTokens(text.slice(last, run.index));
    for (let i = 0; i < run[0].length; i += WINDOW) total += countTokens(run[0].slice(i, i + WINDOW));
    last = run.index + run[0].length;
  }
  if (last === 0) return countTokens(text);
  if (last < text.length) total += countTokens(text.slice(last));
  return total;
}

/** The prompt-cache key of a context prefix: chained over item boundaries, so it can be extended later. */
export function chainHash(previous: string, rendered: string): string {
  return crypto.createHash('sha1').update(previous).update('\u0000').update(rendered).digest('base64url');
}

/** Tokens and prefix keys of a run of items, starting from the chain state `seed`. */
export interface ItemTally {
  /** Tokens of each item. */
  tokens: number[];
  /** The chain key after each item. */
  keys: string[];
  total: number;
  /** Serialized size, for the memory caps. */
  bytes: number;
}

export function tallyItems(items: readonly AnyInputItem[], seed: string): ItemTally {
  const tokens: number[] = [];
  const keys: string[] = [];
  let key = seed;
  let total = 0;
  let bytes = 0;
  for (const item of items) {
    const rendered = renderItem(item);
    // An image is rendered as its type alone; its cost is the API's image rule, its identity part of the key.
    const images = itemImages(item);
    const count = countText(rendered) + images.tokens;
    key = chainHash(key, rendered + images.key);
    tokens.push(count);
    keys.push(key);
    total += count;
    bytes += rendered.length * 2 + 64;
  }
  return { tokens, keys, total, bytes };
}
