import * as fs from 'node:fs';
import * as path from 'node:path';
import { t } from '@vscode/l10n';
import { type SessionHeader, TranscriptRecord } from '../../../agent';
import { isContextMessage } from '../../../protocol';
import { InlineEntry, type SessionSummary } from '../../../protocol/chatView';
import { firstLine, titleOfNote } from './promptTitle';

// The chats kept in the window's storage (one JSON Lines transcript each), newest first, titled by their
// first prompt, or by their first inline fix or edit when they have none. Only the head of each file is read:
// a long session costs no more to list than a short one.

const HEAD_BYTES = 64 * 1024;
const LISTED = 50;

function head(file: string): string[] {
  const handle = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = fs.readSync(handle, buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, read).toString('utf8').split('\n');
  } finally {
    fs.closeSync(handle);
  }
}

/** One line of the head as a record; none for a line that is not one (a torn last line, cut by the head). */
function recordOf(line: string): TranscriptRecord | undefined {
  try {
    const record = TranscriptRecord.safeParse(JSON.parse(line));
    return record.success ? record.data : undefined;
  } catch {
    return undefined;
  }
}

/** The title a record gives its chat if it is the first prompt's: its text, or its note's (an image's). */
function promptTitleOf(record: TranscriptRecord): string | undefined {
  // The first prompt holds an image (promptTitle.ts): its line, next, may not fit in the head.
  if (record.kind === 'note') return titleOfNote(record.note);
  if (record.kind !== 'item') return undefined;
  const item = record.item as { role?: unknown; content?: unknown };
  if (item.role !== 'user') return undefined;
  if (typeof item.content === 'string') return item.content;
  // A prompt with attachments: its text is the first part (the project's instructions are not a prompt).
  const first = Array.isArray(item.content) ? (item.content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' && !isContextMessage(record.item) ? first.text : undefined;
}

/**
 * The title of a chat with no prompt, by its first inline entry (a fix or an edit done beside it, never sent
 * to its model): "Fix: <the problem>", "Edit: <what was asked>", else the entry's own title (its file).
 */
function inlineTitleOf(record: TranscriptRecord): string | undefined {
  const entry = record.kind === 'note' ? InlineEntry.safeParse(record.note) : undefined;
  if (!entry?.success) return undefined;
  const asked = firstLine(entry.data.prompt);
  if (asked === '') return entry.data.title;
  return entry.data.action === 'fix' ? t('Fix: {0}', asked) : t('Edit: {0}', asked);
}

function summarize(file: string): SessionSummary | undefined {
  let header: SessionHeader | undefined;
  let inline: string | undefined;
  let title: string | undefined;
  for (const line of head(file)) {
    const record = recordOf(line);
    if (!record) continue;
    if (record.kind === 'session') header = record;
    title = promptTitleOf(record);
    if (title !== undefined) break;
    inline ??= inlineTitleOf(record);
  }
  if (!header) return undefined;
  return { id: header.id, title: firstLine(title ?? inline ?? '') || t('(no prompt)'), createdAt: header.createdAt };
}

export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => {
      try {
        const summary = summarize(path.join(dir, name));
        return summary ? [summary] : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, LISTED);
}

/** The transcript file of session `id`, refusing ids that could name a file elsewhere. */
export function sessionFile(dir: string, id: string): string {
  if (!/^[\w.-]+$/.test(id) || id.startsWith('.')) throw new Error(`Not a session id: ${id}`);
  return path.join(dir, `${id}.jsonl`);
}
