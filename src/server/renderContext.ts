import * as crypto from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { AnyInputItem, AnyTool } from '../protocol';

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

export function countText(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
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
    const count = countText(rendered);
    key = chainHash(key, rendered);
    tokens.push(count);
    keys.push(key);
    total += count;
    bytes += rendered.length * 2 + 64;
  }
  return { tokens, keys, total, bytes };
}
