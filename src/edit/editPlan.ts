// The one shape both input formats compile to, and the helpers that build its file entries.
import { type Hunk, type Splice, spliceHunks } from './hunks';
import type { MatchLevel } from './matchCascade';
import { type TextFormat, joinText, readLines, splitText } from './textFormat';

/** A file's current text as the caller read it. `version` is whatever the caller versions files by. */
export interface FileSnapshot {
  text: string;
  version?: string | number;
}

/** Current snapshots by path, as the patch or the edit names the path; a path that is absent is a missing file. */
export type FileSnapshots = ReadonlyMap<string, FileSnapshot> | Readonly<Record<string, FileSnapshot | undefined>>;

/** Looks a path up in {@link FileSnapshots} (or any map of that shape). */
export function lookup<T>(items: ReadonlyMap<string, T> | Readonly<Record<string, T | undefined>>, path: string) {
  if (items instanceof Map) return (items as ReadonlyMap<string, T>).get(path);
  const record = items as Readonly<Record<string, T | undefined>>;
  return Object.hasOwn(record, path) ? record[path] : undefined;
}

/** What happens to a file. */
export type FileOp = 'create' | 'delete' | 'move' | 'update';

/** How one chunk or edit was found: the model is told when a looser level than exact was needed. */
export interface MatchNote {
  /** 1-based chunk (apply_patch) … */
  chunk?: number;
  /** … or edit (edit_file) number. */
  edit?: number;
  level: MatchLevel;
  /** 1-based line of the file (as it stood when this chunk or edit was matched) where the match starts. */
  line: number;
  /** The added lines were moved to the file's indentation. */
  reindented: boolean;
}

/** The plan for one file. `after` is exactly `before` with every hunk applied. */
export interface FilePlan {
  /** The file as named by the patch or the edit (the source of a move). */
  path: string;
  op: FileOp;
  /** A move's destination. */
  moveTo?: string;
  /** In `before`'s lines; a create is one hunk of added lines, a delete one hunk of removed lines. */
  hunks: Hunk[];
  /** null for a create. */
  before: string | null;
  /** null for a delete; for a move, the destination's text. */
  after: string | null;
  /** BOM, line ending and final newline, kept from `before` (detected from `after` for a create). */
  format: TextFormat;
  /** Nothing would change: an update whose text stays the same (a move is never a no-op). */
  noop: boolean;
  /** The snapshot version this plan was computed against, if the caller gave one. */
  version?: string | number;
  /** How each chunk or edit was found, in order. */
  matches: MatchNote[];
}

/** Everything one apply_patch or edit_file call would do, computed before anything is written. */
export interface EditPlan {
  files: FilePlan[];
  /** No file would change. */
  noop: boolean;
}

/** A plan made of these file entries. */
export function makePlan(files: FilePlan[]): EditPlan {
  return { files, noop: files.every((file) => file.noop) };
}

/** Each line's own ending for the lines of `after`: kept where a line was kept, empty (the format's) otherwise. */
function endsAfter(ends: readonly string[], hunks: readonly Hunk[], count: number): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    for (; cursor < hunk.oldStart - 1; cursor++) out.push(ends[cursor] ?? '');
    for (let k = 0; k < hunk.newLines.length; k++) out.push('');
    cursor = hunk.oldStart - 1 + hunk.oldLines.length;
  }
  for (; out.length < count; cursor++) out.push(ends[cursor] ?? '');
  return out;
}

/** The entry for a file that is updated (or moved) from `snapshot` by `splices` of its lines. */
export function updateEntry(
  path: string,
  snapshot: FileSnapshot,
  splices: readonly Splice[],
  extra: { moveTo?: string; matches: MatchNote[] },
): FilePlan {
  const before = readLines(snapshot.text);
  const { after, hunks } = spliceHunks(path, before.lines, splices);
  const entry: FilePlan = {
    path,
    op: extra.moveTo === undefined ? 'update' : 'move',
    hunks,
    before: snapshot.text,
    after: joinText({ format: before.format, lines: after, ends: endsAfter(before.ends, hunks, after.length) }),
    format: before.format,
    noop: hunks.length === 0 && extra.moveTo === undefined,
    matches: extra.matches,
  };
  if (extra.moveTo !== undefined) entry.moveTo = extra.moveTo;
  if (snapshot.version !== undefined) entry.version = snapshot.version;
  return entry;
}

/** The entry for a new file with exactly `text`. */
export function createEntry(path: string, text: string, matches: MatchNote[] = []): FilePlan {
  const after = splitText(text);
  return {
    path,
    op: 'create',
    hunks: spliceHunks(path, [], [{ start: 0, deleteCount: 0, insert: after.lines }]).hunks,
    before: null,
    after: text,
    format: after.format,
    noop: false,
    matches,
  };
}

/** The entry for deleting the file read as `snapshot`. */
export function deleteEntry(path: string, snapshot: FileSnapshot): FilePlan {
  const before = readLines(snapshot.text);
  const entry: FilePlan = {
    path,
    op: 'delete',
    hunks: spliceHunks(path, before.lines, [{ start: 0, deleteCount: before.lines.length, insert: [] }]).hunks,
    before: snapshot.text,
    after: null,
    format: before.format,
    noop: false,
    matches: [],
  };
  if (snapshot.version !== undefined) entry.version = snapshot.version;
  return entry;
}
