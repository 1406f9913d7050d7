import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { ChatEntry, ContextMeter, HunkState } from '../../../protocol/chatView';
import { EditedFile } from '../../../protocol/edits';

// The panel's conversation kept beside its transcript, so a reloaded window shows it as it was: the entries
// (durations, outputs, diffs), the reviews (to Accept / Reject / Undo against the files as they are now),
// what the user allowed for the chat, and whether a task was running (it shows as interrupted, with
// Resume). The transcript stays the record of the conversation; this is how it looked. Written whole and
// atomically (a temporary file renamed over it), at most once a second while a task streams, off the
// extension host's thread (SnapshotWriter): a long chat's snapshot is megabytes, and it is written as a
// prompt is sent, when nothing should stand between the Send and the request.

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
  /**
   * The custom agent whose handoffs' buttons showed under the last answer (chatHandoffs.ts): a reopened chat
   * offers that agent's handoffs again, as they are then. Absent: none showed.
   */
  handoffsOf: z.string().min(1).max(200).optional(),
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

/**
 * Writes the snapshots of one sessions folder, for every chat of this process that keeps its chats there.
 * Each entry is serialised once: an entry object is replaced, never changed, once it no longer streams, so
 * its JSON is kept by identity. Writes go one at a time, each file's newest text last, the texts saved
 * meanwhile skipped; `flush` puts every newest text on disk at once (before a chat is shown, or as the
 * window closes).
 */
export class SnapshotWriter {
  private static readonly byFolder = new Map<string, SnapshotWriter>();
  private readonly serialised = new WeakMap<ChatEntry, string>();
  /** Each file's newest text not known to be on disk. */
  private readonly pending = new Map<string, string>();
  private writing: Promise<void> | undefined;
  /** Counts flushes: a write begun before one must not rename its older text over the flushed file. */
  private flushes = 0;

  private constructor(
    private readonly dir: string,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** The writer of sessions folder `dir` (one per folder, so that no chat reads another's stale copy). */
  static of(dir: string, failed: (error: unknown) => void): SnapshotWriter {
    let writer = SnapshotWriter.byFolder.get(dir);
    if (!writer) SnapshotWriter.byFolder.set(dir, (writer = new SnapshotWriter(dir, failed)));
    return writer;
  }

  /** Queues `snapshot` to be written; resolves once nothing newer waits. */
  save(snapshot: ChatSnapshot): Promise<void> {
    this.pending.set(snapshotFile(this.dir, snapshot.sessionId), this.serialise(snapshot));
    this.writing ??= this.drain();
    return this.writing;
  }

  /** Settles once no write is under way (one begun meanwhile included). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Writes every newest text now, synchronously, that may not be on disk yet. */
  flush(): void {
    this.flushes++;
    for (const [file, text] of this.pending) {
      this.pending.delete(file);
      try {
        writeAtomically(file, text);
      } catch (error) {
        this.failed(error);
      }
    }
  }

  private async drain(): Promise<void> {
    for (let next = this.pending.entries().next(); !next.done; next = this.pending.entries().next()) {
      const [file, text] = next.value;
      const flushes = this.flushes;
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(temporary, text);
        // Checked and renamed in one turn of the loop: no flush can come between.
        if (flushes === this.flushes) fs.renameSync(temporary, file);
        else fs.rmSync(temporary, { force: true });
      } catch (error) {
        this.failed(error);
      }
      if (this.pending.get(file) === text) this.pending.delete(file);
    }
    this.writing = undefined;
  }

  private serialise(snapshot: ChatSnapshot): string {
    const { entries, ...rest } = snapshot;
    const parts = entries.map((entry) => {
      const known = this.serialised.get(entry);
      if (known !== undefined) return known;
      const text = JSON.stringify(entry);
      if (!('streaming' in entry && entry.streaming)) this.serialised.set(entry, text);
      return text;
    });
    return `${JSON.stringify(rest).slice(0, -1)},"entries":[${parts.join(',')}]}`;
  }
}

/** Session `sessionId`'s snapshot from its parts: what the panel shows (`model`), its reviews and what was allowed. */
export function snapshotOf(
  sessionId: string,
  running: boolean,
  model: { all: readonly ChatEntry[]; context: ContextMeter | undefined },
  reviews: ChatSnapshot['reviews'],
  allowed: ChatSnapshot['allowed'],
  handoffsOf?: string,
): ChatSnapshot {
  return {
    version: 1,
    sessionId,
    running,
    entries: [...model.all],
    reviews,
    allowed,
    ...(model.context ? { context: model.context } : {}),
    ...(handoffsOf === undefined ? {} : { handoffsOf }),
  };
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
