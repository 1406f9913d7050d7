// One commit replayed: its text changes turned into one apply_patch patch, planned by the engine against the
// parent's files (in memory: the engine is pure) and the result compared byte for byte with the commit.
import { type EditPlan, type FileSnapshot, parsePatch, planPatch } from '../../../src/edit';
import { type Inexpressible, sectionFor } from './diffToPatch';
import { type RawChange, changesOf, fileDiff, readBlob } from './gitRepo';

/** A file of the patch: where it was, what the commit left there. */
export interface PatchFile {
  oldPath: string;
  newPath: string;
  /** The parent's text (null: the commit adds it). */
  oldText: string | null;
  /** What the patch must leave at `newPath` (null: nothing), as far as the format can say it. */
  expected: string | null;
  inexpressible?: Inexpressible;
}

/** A commit as a patch, ready to apply; undefined when it changes no text file. */
export interface CommitPatch {
  commit: string;
  patch: string;
  files: PatchFile[];
  chunks: number;
  /** Chunks that needed more context than the diff's to fit first at their own place. */
  widened: number;
  /** Binary files, symlinks and submodules the commit also changed, left out of the patch. */
  skipped: number;
}

/** How one replay came out. */
export type Outcome =
  | { kind: 'exact' }
  | { kind: 'wrong'; path: string; detail: string }
  | { kind: 'refused'; code: string; message: string };

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A blob as text, or undefined where it is not text (a NUL byte, or not UTF-8). */
function textOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const ZERO = /^0+$/;
const REGULAR = /^100[67][0-7][0-7]$/;

/** Whether one side of a change is a regular file (or absent), not a symlink or a submodule. */
const regular = (mode: string, blob: string) => ZERO.test(blob) || REGULAR.test(mode);

/** The patch that makes `commit`'s text changes from `parent`. */
export function commitPatch(dir: string, parent: string, commit: string): CommitPatch | undefined {
  const sections: string[][] = [];
  const files: PatchFile[] = [];
  let chunks = 0;
  let widened = 0;
  let skipped = 0;
  for (const change of changesOf(dir, parent, commit)) {
    const file = textChange(dir, change);
    if (file === 'skip') {
      skipped++;
      continue;
    }
    if (file === 'same') continue;
    const diff = change.status === 'M' || change.status === 'R' ? fileDiff(dir, parent, commit, paths(change)) : '';
    const section = sectionFor(file, diff);
    sections.push(section.lines);
    chunks += section.chunks;
    widened += section.widened;
    const entry: PatchFile = {
      oldPath: file.oldPath,
      newPath: file.newPath,
      oldText: file.oldText,
      expected: section.expected,
    };
    if (section.inexpressible) entry.inexpressible = section.inexpressible;
    files.push(entry);
  }
  if (files.length === 0) return undefined;
  const patch = ['*** Begin Patch', ...sections.flat(), '*** End Patch', ''].join('\n');
  return { commit, patch, files, chunks, widened, skipped };
}

const paths = (change: RawChange) =>
  change.oldPath === change.newPath ? [change.oldPath] : [change.oldPath, change.newPath];

function textChange(
  dir: string,
  change: RawChange,
): { oldPath: string; newPath: string; oldText: string | null; newText: string | null } | 'skip' | 'same' {
  if (!'ADMR'.includes(change.status)) return 'skip';
  if (!regular(change.oldMode, change.oldBlob) || !regular(change.newMode, change.newBlob)) return 'skip';
  // A path the patch format would read differently (it trims the header's path).
  if (change.oldPath.trim() !== change.oldPath || change.newPath.trim() !== change.newPath) return 'skip';
  // A mode change alone: nothing the format says.
  if (change.status === 'M' && change.oldBlob === change.newBlob) return 'same';
  const oldText = change.status === 'A' ? null : textOf(readBlob(dir, change.oldBlob));
  const newText = change.status === 'D' ? null : textOf(readBlob(dir, change.newBlob));
  if (oldText === undefined || newText === undefined) return 'skip';
  return { oldPath: change.oldPath, newPath: change.newPath, oldText, newText };
}

/** The tree a plan leaves, for the paths it names: what an adapter would write, done in memory. */
function appliedTree(plan: EditPlan, before: ReadonlyMap<string, string>): Map<string, string> {
  const tree = new Map(before);
  for (const file of plan.files) {
    if (file.op === 'delete' || file.op === 'move') tree.delete(file.path);
    if (file.after !== null) tree.set(file.moveTo ?? file.path, file.after);
  }
  return tree;
}

/** Compares the tree with what each file of the patch must be, byte for byte. */
export function compareTree(files: readonly PatchFile[], read: (path: string) => Buffer | null): Outcome {
  for (const file of files) {
    if (
      file.oldPath !== file.newPath &&
      read(file.oldPath) !== null &&
      !files.some((f) => f.newPath === file.oldPath)
    ) {
      return { kind: 'wrong', path: file.oldPath, detail: 'the source of a move is still there' };
    }
    const got = read(file.newPath);
    const want = file.expected === null ? null : Buffer.from(file.expected, 'utf8');
    if (want === null || got === null) {
      if (want !== got)
        return { kind: 'wrong', path: file.newPath, detail: want === null ? 'still exists' : 'missing' };
      continue;
    }
    if (!got.equals(want)) return { kind: 'wrong', path: file.newPath, detail: firstDifference(got, want) };
  }
  return { kind: 'exact' };
}

function firstDifference(got: Buffer, want: Buffer): string {
  const a = got.toString('utf8').split('\n');
  const b = want.toString('utf8').split('\n');
  const line = a.findIndex((row, i) => row !== b[i]);
  const at = line === -1 ? Math.min(a.length, b.length) : line;
  return `line ${at + 1}: got ${JSON.stringify(a[at] ?? '(end)')}, want ${JSON.stringify(b[at] ?? '(end)')}`;
}

/** Plans the patch against the parent's files and compares the result with the commit. */
export function replayInMemory(commit: CommitPatch): Outcome {
  const parsed = parsePatch(commit.patch);
  if (!parsed.ok) return { kind: 'refused', code: parsed.error.code, message: parsed.error.message };
  const before = new Map<string, string>();
  for (const file of commit.files) if (file.oldText !== null) before.set(file.oldPath, file.oldText);
  const snapshots = new Map<string, FileSnapshot>([...before].map(([path, text]) => [path, { text }]));
  const plan = planPatch(parsed.value, snapshots);
  if (!plan.ok) return { kind: 'refused', code: plan.error.code, message: plan.error.message };
  const tree = appliedTree(plan.value, before);
  return compareTree(commit.files, (path) => {
    const text = tree.get(path);
    return text === undefined ? null : Buffer.from(text, 'utf8');
  });
}
