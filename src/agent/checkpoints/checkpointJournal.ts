import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';

// What the agent's own edit tools wrote, per checkpoint (each user message of a conversation): for every
// file, its text before the agent's first write since that checkpoint (null: it did not exist) and the text
// the agent last wrote (null: the agent deleted it or moved it away), so that a Restore puts back the first
// and can tell whether the user changed the file since the second. Pre-images only, of what the agent wrote:
// never a copy of the tree, never git (a `git reset`, `clean` or `stash` on the user's tree loses their
// work). Shell commands and tasks are not journaled; their names are kept so the panel can say so. Kept
// beside the chat as JSON and read back after a reload.

export const JournaledFile = z.strictObject({
  /** The workspace path, canonical (as `Workspace.locate` names it). */
  path: z.string().min(1),
  /** The text before the agent's first write since the checkpoint; null: the file did not exist. */
  before: z.string().nullable(),
  /** The text the agent last wrote; null: it deleted the file, or moved it away. */
  after: z.string().nullable(),
});

export const Checkpoint = z.strictObject({
  /** The user message's id in the chat. */
  id: z.string().min(1),
  /** Transcript items before the message (and before any item sent with it): where a fork cuts. */
  at: z.int().nonnegative(),
  files: z.array(JournaledFile),
  /** Calls since the checkpoint whose effects are not journaled (shell commands, tasks), by tool name. */
  unjournaled: z.array(z.string()),
});

export const JournalFile = z.strictObject({
  version: z.literal(1),
  sessionId: z.string().min(1),
  checkpoints: z.array(Checkpoint),
});

export type JournaledFile = z.infer<typeof JournaledFile>;
export type Checkpoint = z.infer<typeof Checkpoint>;
export type JournalFile = z.infer<typeof JournalFile>;

/** One file of a write, as the adapter is about to apply it. */
export interface JournalWrite {
  path: string;
  before: string | null;
  after: string | null;
}

/** A checkpoint's files as a Restore sees them: the text to go back to, and what the agent last wrote. */
export interface RestoreTarget {
  path: string;
  /** What the file was at the checkpoint; null: it did not exist. */
  target: string | null;
  /** What the agent last wrote; null: it deleted the file (or moved it away). */
  expected: string | null;
}

/**
 * What changed: a checkpoint begun (it holds nothing yet), files recorded (a pre-image the disk must hold
 * before anything else happens), a call noted as unjournaled, files restored.
 */
export type JournalChange = 'begin' | 'record' | 'unjournaled' | 'restored';

export class CheckpointJournal {
  private readonly list: Checkpoint[];
  private readonly listeners = new Set<(change: JournalChange) => void>();

  constructor(
    readonly sessionId: string,
    checkpoints: readonly Checkpoint[] = [],
  ) {
    this.list = checkpoints.map((checkpoint) => structuredClone(checkpoint));
  }

  get checkpoints(): readonly Checkpoint[] {
    return this.list;
  }

  /** Called after every change, told which (the chat writes the journal to disk). */
  onChange(listener: (change: JournalChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A user message is sent: writes from now on belong to its checkpoint. */
  begin(id: string, at: number): void {
    if (this.list.some((checkpoint) => checkpoint.id === id)) return;
    this.list.push({ id, at, files: [], unjournaled: [] });
    this.changed('begin');
  }

  /** The agent's edit tool is writing these files; kept in the newest checkpoint (none yet: not journaled). */
  record(writes: readonly JournalWrite[]): void {
    const current = this.list.at(-1);
    if (!current || writes.length === 0) return;
    for (const write of writes) {
      const known = current.files.find((file) => file.path === write.path);
      if (known) known.after = write.after;
      else current.files.push({ path: write.path, before: write.before, after: write.after });
    }
    this.changed('record');
  }

  /** A call ran whose effects are not journaled (a shell command, a task), named by its tool. */
  unjournaled(name: string): void {
    const current = this.list.at(-1);
    if (!current) return;
    current.unjournaled.push(name);
    this.changed('unjournaled');
  }

  find(id: string): Checkpoint | undefined {
    return this.list.find((checkpoint) => checkpoint.id === id);
  }

  /** Checkpoint `id` and every later one: what the agent did since that message. */
  since(id: string): Checkpoint[] {
    const index = this.list.findIndex((checkpoint) => checkpoint.id === id);
    return index < 0 ? [] : this.list.slice(index);
  }

  /** The files a Restore of checkpoint `id` puts back: each one's first pre-image since then, and its last write. */
  targets(id: string): RestoreTarget[] {
    const byPath = new Map<string, RestoreTarget>();
    for (const checkpoint of this.since(id))
      for (const file of checkpoint.files) {
        const known = byPath.get(file.path);
        if (known) known.expected = file.after;
        else byPath.set(file.path, { path: file.path, target: file.before, expected: file.after });
      }
    return [...byPath.values()];
  }

  /** Tool names of the unjournaled calls since checkpoint `id`. */
  unjournaledSince(id: string): string[] {
    return this.since(id).flatMap((checkpoint) => checkpoint.unjournaled);
  }

  /** These files are back as they were at checkpoint `id`: later checkpoints no longer hold them. */
  restored(id: string, paths: readonly string[]): void {
    const gone = new Set(paths);
    for (const checkpoint of this.since(id)) checkpoint.files = checkpoint.files.filter((file) => !gone.has(file.path));
    this.changed('restored');
  }

  toJSON(): JournalFile {
    return { version: 1, sessionId: this.sessionId, checkpoints: this.list };
  }

  private changed(change: JournalChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** Where the journal of session `id` is kept, beside its transcript. */
export const journalFile = (dir: string, id: string) => path.join(dir, `${id}.checkpoints.json`);

/** Writes the journal whole and atomically (a temporary file renamed over it). */
export function saveJournal(file: string, journal: CheckpointJournal): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(journal.toJSON()));
  fs.renameSync(temporary, file);
}

/**
 * The journal of session `sessionId` from `file`: an empty one where there is none; a file that does not
 * parse (or is another session's) throws, naming the file, since a silently empty journal would make Restore
 * claim there is nothing to put back.
 */
export function loadJournal(file: string, sessionId: string): CheckpointJournal {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return new CheckpointJournal(sessionId);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file}: the checkpoint journal is not JSON`);
  }
  const parsed = JournalFile.safeParse(value);
  if (!parsed.success)
    throw new Error(`${file}: not a checkpoint journal (${parsed.error.issues[0]?.message ?? 'unreadable'})`);
  if (parsed.data.sessionId !== sessionId) throw new Error(`${file}: the journal of another chat`);
  return new CheckpointJournal(sessionId, parsed.data.checkpoints);
}
