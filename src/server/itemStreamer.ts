import type { Compaction, OutputItem } from '../protocol';
import { type Pacer, tokenPieces } from './pacer';
import { sealReasoning } from './reasoningSeal';
import { countText, renderItem } from './renderContext';
import type { TurnEmitter } from './turnEmitter';

/** The output-token allowance of a response (`max_output_tokens`), shared by its items. */
export interface TokenBudget {
  left: number;
  used: number;
}

/** What became of an item once streamed: the final item, cut short when the budget ran out. */
export interface StreamedItem {
  item: OutputItem;
  truncated: boolean;
}

/**
 * Streams one output item in the canonical order of docs/protocol.md §2.1: `output_item.added` with the skeleton, the
 * item's own deltas paced by the clock, their `done` events, then `output_item.done` with the final item.
 */
export async function streamItem(
  item: OutputItem,
  outputIndex: number,
  emitter: TurnEmitter,
  pacer: Pacer,
  budget: TokenBudget,
): Promise<StreamedItem> {
  const out = new ItemOut(item, outputIndex, emitter, pacer, budget);
  switch (item.type) {
    case 'message':
      return streamMessage(item, out);
    case 'function_call': {
      await out.added({ ...item, status: 'in_progress', arguments: '' });
      const args = await out.stream(item.arguments, 'response.function_call_arguments.delta', {});
      await out.emit({ type: 'response.function_call_arguments.done', ...out.ref, name: item.name, arguments: args });
      return out.finish({ ...item, arguments: args }, args !== item.arguments);
    }
    case 'custom_tool_call': {
      await out.added({ ...item, status: 'in_progress', input: '' });
      const input = await out.stream(item.input, 'response.custom_tool_call_input.delta', {});
      await out.emit({ type: 'response.custom_tool_call_input.done', ...out.ref, input });
      return out.finish({ ...item, input }, input !== item.input);
    }
    case 'reasoning':
      return streamReasoning(item, out);
    case 'compaction':
      return streamCompaction(item, countText(renderItem(item)), outputIndex, emitter, pacer, budget);
  }
}

/** One item on its way out: its events' reference, the budget its deltas spend, and its closing event. */
class ItemOut {
  readonly ref: { item_id: OutputItem['id']; output_index: number };

  constructor(
    item: OutputItem,
    private readonly outputIndex: number,
    private readonly emitter: TurnEmitter,
    private readonly pacer: Pacer,
    private readonly budget: TokenBudget,
  ) {
    this.ref = { item_id: item.id, output_index: outputIndex };
  }

  emit(event: Record<string, unknown>): Promise<void> {
    return this.emitter.emit(event);
  }

  added(skeleton: OutputItem): Promise<void> {
    return this.emit({ type: 'response.output_item.added', output_index: this.outputIndex, item: skeleton });
  }

  /** Streams `text` as deltas of `type`; returns the part that fitted the budget. */
  async stream(text: string, type: string, extra: Record<string, unknown>): Promise<string> {
    const { pieces, tokens } = tokenPieces(text);
    const fits = this.budget.left >= tokens;
    // Pieces stand in for tokens when the budget cuts a text short.
    const allowed = fits ? pieces : pieces.slice(0, Math.max(0, Math.floor(this.budget.left)));
    let index = 0;
    while (index < allowed.length) {
      const count = await this.pacer.take(allowed.length - index);
      await this.emit({ type, ...this.ref, ...extra, delta: allowed.slice(index, index + count).join('') });
      index += count;
    }
    const used = fits ? tokens : allowed.length;
    this.budget.left -= used;
    this.budget.used += used;
    return fits ? text : allowed.join('');
  }

  async finish(final: OutputItem, cut: boolean): Promise<StreamedItem> {
    const done = { ...final, status: cut ? 'incomplete' : 'completed' } as OutputItem;
    await this.emit({ type: 'response.output_item.done', output_index: this.outputIndex, item: done });
    return { item: done, truncated: cut };
  }
}

async function streamMessage(item: Extract<OutputItem, { type: 'message' }>, out: ItemOut): Promise<StreamedItem> {
  await out.added({ ...item, status: 'in_progress', content: [] });
  const content = [];
  let truncated = false;
  for (const [contentIndex, part] of item.content.entries()) {
    const partRef = { ...out.ref, content_index: contentIndex };
    const source = part.text;
    if (part.type !== 'output_text' || typeof source !== 'string') continue;
    await out.emit({
      type: 'response.content_part.added',
      ...partRef,
      part: { type: 'output_text', text: '', annotations: [] },
    });
    const text = await out.stream(source, 'response.output_text.delta', { content_index: contentIndex, logprobs: [] });
    truncated ||= text !== source;
    const done = { ...part, text };
    await out.emit({ type: 'response.output_text.done', ...partRef, text, logprobs: [] });
    await out.emit({ type: 'response.content_part.done', ...partRef, part: done });
    content.push(done);
    if (truncated) break;
  }
  return out.finish({ ...item, content }, truncated);
}

async function streamReasoning(item: Extract<OutputItem, { type: 'reasoning' }>, out: ItemOut): Promise<StreamedItem> {
  await out.added({ ...item, summary: [] });
  const summary = [];
  let truncated = false;
  for (const [summaryIndex, part] of item.summary.entries()) {
    const partRef = { ...out.ref, summary_index: summaryIndex };
    await out.emit({
      type: 'response.reasoning_summary_part.added',
      ...partRef,
      part: { type: 'summary_text', text: '' },
    });
    const text = await out.stream(part.text, 'response.reasoning_summary_text.delta', { summary_index: summaryIndex });
    truncated ||= text !== part.text;
    await out.emit({ type: 'response.reasoning_summary_text.done', ...partRef, text });
    await out.emit({ type: 'response.reasoning_summary_part.done', ...partRef, part: { type: 'summary_text', text } });
    summary.push({ type: 'summary_text' as const, text });
    if (truncated) break;
  }
  // Populated by default, as the SDK's type says the API does, and only on the finished item: the content
  // of `output_item.added` "may be incomplete", so clients replay the one from `output_item.done`.
  const texts = summary.map((part) => part.text);
  return out.finish({ ...item, summary, encrypted_content: sealReasoning(item.id ?? '', texts) }, truncated);
}

/**
 * Streams a compaction item as the API does — `output_item.added`, then `output_item.done`, no deltas — with
 * the time the model takes to write its `tokens` between the two. Those tokens count in the response's
 * `output_tokens` but not against `max_output_tokens`, which bounds the answer, not the compaction pass.
 */
export async function streamCompaction(
  item: Compaction,
  tokens: number,
  outputIndex: number,
  emitter: TurnEmitter,
  pacer: Pacer,
  budget: TokenBudget,
): Promise<StreamedItem> {
  await emitter.emit({ type: 'response.output_item.added', output_index: outputIndex, item });
  for (let left = tokens; left > 0;) left -= await pacer.take(left);
  budget.used += tokens;
  await emitter.emit({ type: 'response.output_item.done', output_index: outputIndex, item });
  return { item, truncated: false };
}
