import { t } from '@vscode/l10n';
import {
  type AnyInputItem,
  type AnyMessageContentPart,
  type AnyToolOutputPart,
  type CallItem,
  type CustomToolCallOutput,
  type FunctionCallOutput,
  InputItem,
  type Message,
  isContextMessage,
} from '../../../protocol';
import { type TranscriptNote, attachmentOfPart, imageOfPart } from '../../../agent';
import type { Attachment } from '../../../protocol/attachments';
import { type ChatEntry, InlineEntry, type ToolEntry } from '../../../protocol/chatView';
import { BUILTIN_TOOLS, type ToolRegistry } from '../../../tools';

// A saved session as the panel shows it when reopened: the user's prompts, the answers, and a card per
// tool call with its answer. (Review buttons belong to live edits only: a reopened edit is reviewed with
// the editor's own history.) Items are read with the protocol's schemas; one of a type this version does
// not model, or that does not parse, shows nothing.

/** A content part's text: its `text` (any kind of part that has one), else its refusal. */
function partText(part: AnyMessageContentPart | AnyToolOutputPart): string {
  if ('text' in part && typeof part.text === 'string') return part.text;
  return 'refusal' in part && typeof part.refusal === 'string' ? part.refusal : '';
}

function textOf(content: string | readonly (AnyMessageContentPart | AnyToolOutputPart)[]): string {
  return typeof content === 'string' ? content : content.map(partText).join('');
}

/**
 * A prompt's own text and the attachments its later parts carry (attachments.ts wrote them). A prompt sent
 * without text (an image alone) has no text part first: every part of a message holding an image is read as
 * an attachment then, the first too.
 */
function promptOf(content: string | readonly AnyMessageContentPart[]): { text: string; attachments: Attachment[] } {
  if (typeof content === 'string') return { text: content, attachments: [] };
  const attachments: Attachment[] = [];
  const texts: string[] = [];
  const textless =
    (content[0] !== undefined && isImage(content[0])) || (content.some(isImage) && isLabelled(content[0]));
  content.forEach((part, index) => {
    const attachment = index > 0 || textless ? (imageOfPart(part) ?? attachmentOfPart(partText(part))) : undefined;
    if (attachment) attachments.push(attachment);
    else texts.push(partText(part));
  });
  return { text: texts.join(''), attachments };
}

const isImage = (part: AnyMessageContentPart) => part.type === 'input_image';
const isLabelled = (part: AnyMessageContentPart | undefined) =>
  part !== undefined && attachmentOfPart(partText(part)) !== undefined;

/** The notes kept beside the items (an inline edit's entry) that came before item `index`, and not before `from`. */
function notesBefore(notes: readonly TranscriptNote[], from: number, index: number): ChatEntry[] {
  return notes.flatMap(({ at, note }) => {
    const entry = at >= from && at < index ? InlineEntry.safeParse(note) : undefined;
    return entry?.success ? [entry.data] : [];
  });
}

/**
 * An inline entry kept again with a new outcome (the editor's undo or redo, inline/inlineController.ts) is
 * one entry: where it was first, as it was last said.
 */
function latestNotes(notes: readonly TranscriptNote[]): TranscriptNote[] {
  const last = new Map<unknown, TranscriptNote['note']>();
  for (const { note } of notes) if (typeof note['id'] === 'string') last.set(note['id'], note);
  const seen = new Set<unknown>();
  return notes.flatMap(({ at, note }) => {
    const id = note['id'];
    if (typeof id !== 'string') return [{ at, note }];
    if (seen.has(id)) return [];
    seen.add(id);
    return [{ at, note: last.get(id) ?? note }];
  });
}

/** What the walk over the items carries: the entries so far, the calls awaiting their answer, the model's turn. */
interface Walk {
  readonly entries: ChatEntry[];
  readonly calls: Map<string, ToolEntry>;
  readonly tools: ToolRegistry;
  turn: number;
}

/**
 * `tools`: the agent's tools, which say how each call summarises (default: the built-in ones); `notes`: what
 * the transcript keeps beside its items (inline edits done beside the chat), each shown where it happened.
 */
export function transcriptEntries(
  items: readonly AnyInputItem[],
  tools: ToolRegistry = BUILTIN_TOOLS,
  kept: readonly TranscriptNote[] = [],
): ChatEntry[] {
  const notes = latestNotes(kept);
  const walk: Walk = { entries: [], calls: new Map(), tools, turn: 0 };
  items.forEach((raw, index) => {
    walk.entries.push(...notesBefore(notes, index, index + 1));
    const parsed = InputItem.safeParse(raw);
    if (parsed.success) addItem(walk, parsed.data, raw, `saved:${index}`);
  });
  walk.entries.push(...notesBefore(notes, items.length, Number.POSITIVE_INFINITY));
  return walk.entries;
}

/** One parsed item's entry, if it shows as one; `raw` as saved (it says whether a message is context), `id` its entry's. */
function addItem(walk: Walk, item: InputItem, raw: AnyInputItem, id: string): void {
  switch (item.type) {
    case undefined:
    case 'message':
      addMessage(walk, item, isContextMessage(raw), id);
      return;
    case 'reasoning': {
      const text = item.summary.map((part) => part.text).join('\n\n');
      if (text !== '') walk.entries.push({ kind: 'thinking', id, text, streaming: false });
      return;
    }
    case 'function_call':
    case 'custom_tool_call':
      addCall(walk, item);
      return;
    case 'compaction':
      walk.entries.push({
        kind: 'notice',
        id,
        level: 'info',
        text: t('Context compacted: the model goes on from a summary of what came before.'),
      });
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      answerCall(walk, item);
      return;
  }
}

/** A prompt's bubble or an answer's text; `context`: the project's instructions (AGENTS.md), which are no prompt. */
function addMessage(walk: Walk, item: Message, context: boolean, id: string): void {
  const prompt = item.role === 'user' && !context ? promptOf(item.content) : undefined;
  if (prompt && (prompt.text !== '' || prompt.attachments.length > 0)) {
    walk.entries.push({
      kind: 'user',
      id,
      text: prompt.text,
      ...(prompt.attachments.length > 0 ? { attachments: prompt.attachments } : {}),
    });
    return;
  }
  const text = textOf(item.content);
  if (item.role !== 'assistant' || text === '') return;
  walk.turn++;
  walk.entries.push({
    kind: 'assistant',
    id,
    text,
    streaming: false,
    ...(item.phase === 'commentary' ? { note: true } : {}),
  });
}

/** A call's card, failed until its answer comes (a session cut short never answered it). */
function addCall(walk: Walk, item: CallItem): void {
  const input = item.type === 'custom_tool_call' ? item.input : item.arguments;
  const paths = walk.tools.paths(item.name, input);
  const entry: ToolEntry = {
    kind: 'tool',
    id: item.call_id,
    turn: walk.turn,
    name: item.name,
    summary: walk.tools.summarize(item.name, input),
    ...(paths.length > 0 ? { paths } : {}),
    status: 'failed',
    output: t('No answer was recorded for this call.'),
  };
  walk.calls.set(item.call_id, entry);
  walk.entries.push(entry);
}

/** An answer fills in its call's card (its output cut at 8,000 characters); one for no call shown shows nothing. */
function answerCall(walk: Walk, item: FunctionCallOutput | CustomToolCallOutput): void {
  const entry = walk.calls.get(item.call_id);
  if (!entry) return;
  entry.status = 'done';
  const output = textOf(item.output);
  entry.output = output.length > 8_000 ? `${output.slice(0, 8_000)}\n…` : output;
}
