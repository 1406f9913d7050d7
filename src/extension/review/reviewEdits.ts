import { t } from '@vscode/l10n';
import {
  type EditError,
  type EditPlan,
  type FileSnapshot,
  type Hunk,
  applyHunk,
  deleteEntry,
  hunkStanding,
  makePlan,
  planWrite,
  revertHunk,
} from '../../edit';
import type { HunkState } from '../../protocol/chatView';
import type { EditedFile } from '../../protocol/edits';
import type { Workspace } from '../../workspace';

// Review after the fact: what an edit wrote, hunk by hunk, and taking hunks back (or applying them again)
// through the Workspace port (in VS Code a WorkspaceEdit: undoable, dirty buffers respected). A hunk is
// found again by its own lines and context, so edits elsewhere since do not matter; if the user changed the
// hunk's own lines, the action is refused with the text as it is now, and nothing is written. The states
// are read back from the files (`reconcile`) after every change, whoever made it: the editor's Undo of a
// Reject brings the hunk back on its card too.

export interface ReviewedEdit {
  callId: string;
  turn: number;
  files: EditedFile[];
  /** By file path, then hunk id. */
  states: Map<string, Map<string, HunkState>>;
  /** By file path, then hunk id: the 0-based line where a standing hunk's new lines are now. */
  lines: Map<string, Map<string, number>>;
}

export class ReviewRefused extends Error {
  override name = 'ReviewRefused';
}

/**
 * What the person reads when a hunk no longer fits: the edit engine's message is the model's (English, with
 * an excerpt of the file), so the usual case gets a sentence of its own in the person's language.
 */
function refusal(path: string, error: EditError): string {
  return error.code === 'hunk_conflict'
    ? t('{0}: its lines changed since, so this change no longer fits there.', path)
    : `${path}: ${error.message}`;
}

export function reviewed(callId: string, turn: number, files: EditedFile[]): ReviewedEdit {
  const states = new Map<string, Map<string, HunkState>>();
  for (const file of files) states.set(file.path, new Map(file.hunks.map((hunk) => [hunk.id, 'applied' as const])));
  return { callId, turn, files, states, lines: new Map() };
}

/**
 * Reads the state of each hunk of `path` from its text now (undefined: the file is gone). Kept hunks stay
 * kept while they stand; true when any state changed.
 */
export function reconcile(edit: ReviewedEdit, path: string, text: string | undefined): boolean {
  const file = edit.files.find((f) => f.path === path);
  const states = edit.states.get(path);
  // A move or a delete is reviewed with the editor's own history: there is no text to read it from.
  if (!file || !states || file.op === 'move' || file.op === 'delete') return false;
  const lines = new Map<string, number>();
  let changed = false;
  for (const hunk of file.hunks) {
    const before = states.get(hunk.id);
    let state: HunkState;
    if (text === undefined) state = file.op === 'create' ? 'rejected' : 'edited';
    else {
      const standing = hunkStanding(hunk, text, file.format, before === 'rejected' ? 'old' : 'new');
      state =
        standing.side === 'neither'
          ? 'edited'
          : standing.side === 'old'
            ? 'rejected'
            : before === 'accepted'
              ? 'accepted'
              : 'applied';
      if (standing.side === 'new') lines.set(hunk.id, standing.line);
    }
    if (state !== before) changed = true;
    states.set(hunk.id, state);
  }
  edit.lines.set(path, lines);
  return changed;
}

/** The hunks of `file` still in the text (applied or accepted), last first: undoing from the bottom up. */
function standing(edit: ReviewedEdit, file: EditedFile): Hunk[] {
  const states = edit.states.get(file.path);
  return file.hunks.filter((hunk) => states?.get(hunk.id) !== 'rejected').reverse();
}

/** `text` with `hunks` taken back, in order; refused as a whole if one no longer fits. */
function revertAll(path: string, text: string, file: EditedFile, hunks: readonly Hunk[]): string {
  let current = text;
  for (const hunk of hunks) {
    const reverted = revertHunk(hunk, current, file.format);
    if (!reverted.ok) throw new ReviewRefused(refusal(path, reverted.error));
    current = reverted.value;
  }
  return current;
}

/** The plan that writes `text` to `path` (read now as `current`); a created file taken back entirely goes. */
function writePlan(path: string, file: EditedFile, current: FileSnapshot, text: string): EditPlan {
  if (file.op === 'create' && text === '') return makePlan([deleteEntry(path, current)]);
  return planWrite(path, text, current);
}

/** What taking back `hunks` of each named file would write: computed for all files before anything is. */
async function planReverts(
  workspace: Workspace,
  changes: readonly { edit: ReviewedEdit; file: EditedFile; hunks: Hunk[] }[],
): Promise<EditPlan> {
  const texts = new Map<string, { file: EditedFile; current: FileSnapshot; text: string }>();
  for (const { file, hunks } of changes) {
    if (file.op === 'move') throw new ReviewRefused(`${file.path} was moved: undo the move with the editor's Undo.`);
    if (file.op === 'delete') throw new ReviewRefused(`${file.path} was deleted: restore it with the editor's Undo.`);
    let known = texts.get(file.path);
    if (!known) {
      const current = await workspace.tryReadFile(file.path);
      if (!current) throw new ReviewRefused(`${file.path} no longer exists.`);
      known = { file, current: { text: current.text, version: current.version }, text: current.text };
      texts.set(file.path, known);
    }
    known.text = revertAll(file.path, known.text, file, hunks);
  }
  const files = [...texts].flatMap(([path, { file, current, text }]) => writePlan(path, file, current, text).files);
  return makePlan(files);
}

/** One hunk of an edit with its state, if a review action may still act on it. */
function reviewable(edit: ReviewedEdit, path: string, hunkId: string) {
  const file = edit.files.find((f) => f.path === path);
  const hunk = file?.hunks.find((h) => h.id === hunkId);
  const states = edit.states.get(path);
  const state = states?.get(hunkId);
  if (!file || !hunk || !states || state === undefined) throw new ReviewRefused(t('No such hunk in {0}.', path));
  if (state === 'edited')
    throw new ReviewRefused(`${path}: the lines of that hunk changed since; edit them in the editor instead.`);
  return { file, hunk, states, state };
}

/**
 * Keeps one hunk or takes it back. One taken back and then kept is applied again first, while its old lines
 * still fit (a file it created and Reject deleted is created again).
 */
export async function reviewHunk(
  workspace: Workspace,
  edit: ReviewedEdit,
  path: string,
  hunkId: string,
  action: 'accept' | 'reject',
): Promise<void> {
  const { file, hunk, states, state } = reviewable(edit, path, hunkId);
  if (action === 'reject') {
    if (state === 'rejected') return;
    await workspace.applyPlan(await planReverts(workspace, [{ edit, file, hunks: [hunk] }]));
    states.set(hunkId, 'rejected');
    return;
  }
  if (state === 'rejected') {
    const current = await workspace.tryReadFile(path);
    const applied = applyHunk(hunk, current?.text ?? '', file.format);
    if (!applied.ok) throw new ReviewRefused(refusal(path, applied.error));
    const snapshot = current ? { text: current.text, version: current.version } : undefined;
    await workspace.applyPlan(planWrite(path, applied.value, snapshot));
  }
  states.set(hunkId, 'accepted');
}

/** Takes back every hunk still standing of these edits (a turn's), newest edit first, all or nothing. */
export async function undoEdits(workspace: Workspace, edits: readonly ReviewedEdit[]): Promise<number> {
  const changes = [...edits]
    .reverse()
    .flatMap((edit) => edit.files.map((file) => ({ edit, file, hunks: standing(edit, file) })))
    .filter((change) => change.hunks.length > 0);
  if (changes.length === 0) return 0;
  const plan = await planReverts(workspace, changes);
  await workspace.applyPlan(plan);
  for (const { edit, file, hunks } of changes)
    for (const hunk of hunks) edit.states.get(file.path)?.set(hunk.id, 'rejected');
  return changes.reduce((n, change) => n + change.hunks.length, 0);
}

/** The text before this edit's standing hunks, rebased on the file as it is now (the left side of a diff). */
export async function textBefore(
  workspace: Workspace,
  edit: ReviewedEdit,
  path: string,
): Promise<{ before: string; now: string }> {
  const file = edit.files.find((f) => f.path === path);
  if (!file) throw new ReviewRefused(t('No such file in this edit: {0}.', path));
  const current = await workspace.tryReadFile(path);
  const now = current?.text ?? '';
  if (file.op === 'create') return { before: '', now };
  return { before: revertAll(path, now, file, standing(edit, file)), now };
}
