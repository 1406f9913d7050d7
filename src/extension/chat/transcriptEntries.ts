import { t } from '@vscode/l10n';
import {
  type AnyInputItem,
  type AnyMessageContentPart,
  type AnyToolOutputPart,
  InputItem,
  isContextMessage,
} from '../../protocol';
import { attachmentOfPart } from '../../agent/attachments';
import type { TranscriptNote } from '../../agent';
import { imageOfPart } from '../../agent/promptParts';
import type { Attachment } from '../../protocol/attachments';
import { type ChatEntry, InlineEntry, type ToolEntry } from '../../protocol/chatView';
import { BUILTIN_TOOLS, type ToolRegistry } from '../../tools';

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
 * `tools`: the agent's tools, which say how each call summarises (default: the built-in ones); `notes`: what
 * the transcript keeps beside its items (inline edits done beside the chat), each shown where it happened.
 */
export function transcriptEntries(
  items: readonly AnyInputItem[],
  tools: ToolRegistry = BUILTIN_TOOLS,
  notes: readonly TranscriptNote[] = [],
): ChatEntry[] {
  const entries: ChatEntry[] = [];
  const calls = new Map<string, ToolEntry>();
  let turn = 0;
  items.forEach((raw, index) => {
    entries.push(...notesBefore(notes, index, index + 1));
    const parsed = InputItem.safeParse(raw);
    if (!parsed.success) return;
    const item = parsed.data;
    const id = `saved:${index}`;
    switch (item.type) {
      case undefined:
      case 'message': {
        const text = textOf(item.content);
        // The project's instructions (AGENTS.md) are a user message the agent added, not a prompt.
        const prompt = item.role === 'user' && !isContextMessage(raw) ? promptOf(item.content) : undefined;
        if (prompt && (prompt.text !== '' || prompt.attachments.length > 0)) {
          entries.push({
            kind: 'user',
            id,
            text: prompt.text,
            ...(prompt.attachments.length > 0 ? { attachments: prompt.attachments } : {}),
          });
        } else if (item.role === 'assistant' && text !== '') {
          turn++;
          entries.push({
            kind: 'assistant',
            id,
            text,
            streaming: false,
            ...(item.phase === 'commentary' ? { note: true } : {}),
          });
        }
        return;
      }
      case 'reasoning': {
        const text = item.summary.map((part) => part.text).join('\n\n');
        if (text !== '') entries.push({ kind: 'thinking', id, text, streaming: false });
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const input = item.type === 'custom_tool_call' ? item.input : item.arguments;
        const paths = tools.paths(item.name, input);
        const entry: ToolEntry = {
          kind: 'tool',
          id: item.call_id,
          turn,
          name: item.name,
          summary: tools.summarize(item.name, input),
          ...(paths.length > 0 ? { paths } : {}),
          status: 'failed',
          output: t('No answer was recorded for this call.'),
        };
        calls.set(item.call_id, entry);
        entries.push(entry);
        return;
      }
      case 'compaction':
        entries.push({
          kind: 'notice',
          id,
          level: 'info',
          text: t('Context compacted: the model goes on from a summary of what came before.'),
        });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const entry = calls.get(item.call_id);
        if (!entry) return;
        entry.status = 'done';
        const output = textOf(item.output);
        entry.output = output.length > 8_000 ? `${output.slice(0, 8_000)}\n…` : output;
        return;
      }
    }
  });
  entries.push(...notesBefore(notes, items.length, Number.POSITIVE_INFINITY));
  return entries;
}
