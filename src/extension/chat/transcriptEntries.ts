import { summarizeCall } from '../../agent';
import type { AnyInputItem } from '../../protocol';
import type { ChatEntry, ToolEntry } from '../../protocol/chatView';

// A saved session as the panel shows it when reopened: the user's prompts, the answers, and a card per
// tool call with its answer. (Review buttons belong to live edits only: a reopened edit is reviewed with
// the editor's own history.)

type Loose = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const p = (part ?? {}) as Loose;
      if (typeof p.text === 'string') return p.text;
      return typeof p.refusal === 'string' ? p.refusal : '';
    })
    .join('');
}

export function transcriptEntries(items: readonly AnyInputItem[]): ChatEntry[] {
  const entries: ChatEntry[] = [];
  const calls = new Map<string, ToolEntry>();
  let turn = 0;
  items.forEach((item, index) => {
    const record = item as Loose;
    const id = `saved:${index}`;
    if (record.type === 'message' || (record.type === undefined && typeof record.role === 'string')) {
      const text = textOf(record.content);
      if (record.role === 'user' && text !== '') entries.push({ kind: 'user', id, text });
      else if (record.role === 'assistant' && text !== '') {
        turn++;
        entries.push({ kind: 'assistant', id, text, streaming: false });
      }
      return;
    }
    if (record.type === 'reasoning' && Array.isArray(record.summary)) {
      const text = record.summary
        .map((part: unknown) => (part as { text?: unknown }).text)
        .filter((part): part is string => typeof part === 'string')
        .join('\n\n');
      if (text !== '') entries.push({ kind: 'thinking', id, text, streaming: false });
      return;
    }
    if ((record.type === 'function_call' || record.type === 'custom_tool_call') && typeof record.call_id === 'string') {
      const name = typeof record.name === 'string' ? record.name : 'tool';
      const input =
        typeof record.input === 'string' ? record.input : typeof record.arguments === 'string' ? record.arguments : '';
      const entry: ToolEntry = {
        kind: 'tool',
        id: record.call_id,
        turn,
        name,
        summary: summarizeCall(name, input),
        status: 'failed',
        output: 'No answer was recorded for this call.',
      };
      calls.set(record.call_id, entry);
      entries.push(entry);
      return;
    }
    if (
      (record.type === 'function_call_output' || record.type === 'custom_tool_call_output') &&
      typeof record.call_id === 'string'
    ) {
      const entry = calls.get(record.call_id);
      if (!entry) return;
      entry.status = 'done';
      const output = typeof record.output === 'string' ? record.output : textOf(record.output);
      entry.output = output.length > 8_000 ? `${output.slice(0, 8_000)}\n…` : output;
    }
  });
  return entries;
}
