import { type AnyInputItem, isCompaction, isPrompt } from '../protocol';
import { openCompaction } from './compactionSeal';

// Where a conversation stands, read from its items alone: the latest user message and how many model
// responses followed it. The scripted model picks its step from this (scriptedModel.ts), and a compaction
// carries it forward (compaction.ts), so a scenario plays the same over HTTP with full history, HTTP chained,
// WebSocket, and however often its context was compacted.

/** Items the model wrote; a run of them between other items is one model response. */
const MODEL_ITEM_TYPES = new Set(['function_call', 'custom_tool_call', 'reasoning']);

export function isModelItem(item: AnyInputItem): boolean {
  const record = item as { type?: unknown; role?: unknown };
  if (record.type === undefined || record.type === 'message') return record.role === 'assistant';
  return typeof record.type === 'string' && MODEL_ITEM_TYPES.has(record.type);
}

export function messageText(item: AnyInputItem): string {
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .filter((text) => text !== '')
    .join('\n');
}

function lastIndex(items: readonly AnyInputItem[], test: (item: AnyInputItem) => boolean): number {
  let index = items.length - 1;
  while (index >= 0 && !test(items[index] as AnyInputItem)) index--;
  return index;
}

/**
 * The latest prompt's text and the 1-based step it calls for (1 + the runs of model items after it),
 * or undefined without a user message. A compaction after that message stands for the runs it replaced: its
 * sealed count starts the tally, and its sealed prompt serves when the user message itself was pruned.
 */
export function locateStep(items: readonly AnyInputItem[]): { prompt: string; step: number } | undefined {
  // Context items (`<environment_context>`, AGENTS.md) are user messages but not prompts: one sent mid-task
  // (the approval mode changed) must not restart the scenario.
  const userIndex = lastIndex(items, isPrompt);
  const compactionIndex = lastIndex(items, isCompaction);
  let prompt: string | undefined;
  let responses = 0;
  let from = userIndex;
  if (compactionIndex > userIndex) {
    const content = (items[compactionIndex] as { encrypted_content?: unknown }).encrypted_content;
    const sealed = typeof content === 'string' ? openCompaction(content) : undefined;
    if (sealed) {
      prompt = sealed.prompt ?? undefined;
      responses = sealed.responses;
      from = compactionIndex;
    }
  }
  if (prompt === undefined && userIndex >= 0) prompt = messageText(items[userIndex] as AnyInputItem);
  if (prompt === undefined) return undefined;
  let inRun = false;
  for (let i = from + 1; i < items.length; i++) {
    const model = isModelItem(items[i] as AnyInputItem);
    if (model && !inRun) responses++;
    inRun = model;
  }
  return { prompt, step: responses + 1 };
}
