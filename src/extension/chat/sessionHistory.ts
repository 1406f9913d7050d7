import * as fs from 'node:fs';
import * as path from 'node:path';
import { TranscriptRecord } from '../../agent';
import { isContextMessage } from '../../protocol';
import type { SessionSummary } from '../../protocol/chatView';
import { firstLine, titleOfNote } from './promptTitle';

// The chats kept in the window's storage (one JSON Lines transcript each), newest first, titled by their
// first prompt. Only the head of each file is read: a long session costs no more to list than a short one.

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

function summarize(file: string): SessionSummary | undefined {
  const lines = head(file);
  let header: Extract<TranscriptRecord, { kind: 'session' }> | undefined;
  let title = '';
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const record = TranscriptRecord.safeParse(value);
    if (!record.success) continue;
    if (record.data.kind === 'session') header = record.data;
    else if (record.data.kind === 'note' && titleOfNote(record.data.note) !== undefined) {
      // The first prompt holds an image (promptTitle.ts): its line, next, may not fit in the head.
      title = titleOfNote(record.data.note) ?? '';
      break;
    } else if (record.data.kind === 'item') {
      const item = record.data.item as { role?: unknown; content?: unknown };
      if (item.role === 'user' && typeof item.content === 'string') {
        title = item.content;
        break;
      }
      // A prompt with attachments: its text is the first part (the project's instructions are not a prompt).
      const first = Array.isArray(item.content) ? (item.content[0] as { text?: unknown } | undefined) : undefined;
      if (item.role === 'user' && typeof first?.text === 'string' && !isContextMessage(record.data.item)) {
        title = first.text;
        break;
      }
    }
  }
  if (!header) return undefined;
  return { id: header.id, title: firstLine(title) || '(no prompt)', createdAt: header.createdAt };
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
