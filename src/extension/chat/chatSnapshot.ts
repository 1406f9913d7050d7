import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { ChatEntry, ContextMeter, HunkState } from '../../protocol/chatView';
import { EditedFile } from '../../protocol/edits';

// The panel's conversation kept beside its transcript, so a reloaded window shows it as it was: the entries
// (durations, outputs, diffs), the reviews (to Accept / Reject / Undo against the files as they are now),
// what the user allowed for the chat, and whether a task was running (it shows as interrupted, with
// Resume). The transcript stays the record of the conversation; this is how it looked. Written whole and
// atomically (a temporary file renamed over it), at most once a second while a task streams.

export const ChatSnapshot = z.object({
  version: z.literal(1),
  sessionId: z.string().min(1),
  /** A task was running when this was written: the window went away mid-task. */
  running: z.boolean(),
  entries: z.array(ChatEntry),
  reviews: z.array(
    z.object({
      callId: z.string(),
      turn: z.int().nonnegative(),
      files: z.array(EditedFile),
      states: z.record(z.string(), z.record(z.string(), HunkState)),
    }),
  ),
  /** The effects the user allowed for the whole chat ("Allow tasks for this chat"). */
  allowed: z.array(z.enum(['write', 'task'])),
  /** The token meter as the panel last showed it. */
  context: ContextMeter.optional(),
});
export type ChatSnapshot = z.infer<typeof ChatSnapshot>;

/** The file naming the conversation the panel shows (absent after New chat). */
const CURRENT = 'current-chat.json';

const snapshotFile = (dir: string, id: string) => path.join(dir, `${id}.chat.json`);

function writeAtomically(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

export function saveSnapshot(dir: string, snapshot: ChatSnapshot): void {
  writeAtomically(snapshotFile(dir, snapshot.sessionId), JSON.stringify(snapshot));
}

/** The snapshot of session `id`, or why there is none usable (missing: undefined reason). */
export function loadSnapshot(dir: string, id: string): { snapshot?: ChatSnapshot; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(snapshotFile(dir, id), 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = ChatSnapshot.safeParse(JSON.parse(text));
    if (parsed.success && parsed.data.sessionId === id) return { snapshot: parsed.data };
    return { problem: `the panel's copy of chat ${id} is not one this version reads; showing its transcript` };
  } catch {
    return { problem: `the panel's copy of chat ${id} is not JSON; showing its transcript` };
  }
}

/** Remembers which chat the panel shows (undefined: a new, empty one). */
export function setCurrentChat(dir: string, id: string | undefined): void {
  const file = path.join(dir, CURRENT);
  if (id === undefined) fs.rmSync(file, { force: true });
  else writeAtomically(file, JSON.stringify({ sessionId: id }));
}

export function currentChat(dir: string): string | undefined {
  try {
    const value = JSON.parse(fs.readFileSync(path.join(dir, CURRENT), 'utf8')) as { sessionId?: unknown };
    return typeof value.sessionId === 'string' ? value.sessionId : undefined;
  } catch {
    return undefined;
  }
}
