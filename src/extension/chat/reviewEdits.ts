import { type EditPlan, type FileSnapshot, type Hunk, deleteEntry, makePlan, planWrite, revertHunk } from '../../edit';
import type { HunkState } from '../../protocol/chatView';
import type { EditedFile } from '../../protocol/edits';
import type { Workspace } from '../../workspace';

// Review after the fact: what an edit wrote, hunk by hunk, and taking hunks back through the Workspace port
// (in VS Code a WorkspaceEdit: undoable, dirty buffers respected). A hunk is found again by its own lines
// and context, so edits elsewhere since do not matter; if the user changed the hunk's own lines, taking it
// back is refused with the text as it is now, and nothing is written.

export interface ReviewedEdit {
  callId: string;
  turn: number;
  files: EditedFile[];
  /** By file path, then hunk id. */
  states: Map<string, Map<string, HunkState>>;
}

export class ReviewRefused extends Error {
  override name = 'ReviewRefused';
}

export function reviewed(callId: string, turn: number, files: EditedFile[]): ReviewedEdit {
  const states = new Map<string, Map<string, HunkState>>();
  for (const file of files) states.set(file.path, new Map(file.hunks.map((hunk) => [hunk.id, 'applied' as const])));
  return { callId, turn, files, states };
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
    if (!reverted.ok) throw new ReviewRefused(`${path}: ${reverted.error.message}`);
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

/** Takes one hunk back. */
export async function rejectHunk(
  workspace: Workspace,
  edit: ReviewedEdit,
  path: string,
  hunkId: string,
): Promise<void> {
  const file = edit.files.find((f) => f.path === path);
  const hunk = file?.hunks.find((h) => h.id === hunkId);
  const state = edit.states.get(path)?.get(hunkId);
  if (!file || !hunk || state === undefined) throw new ReviewRefused(`No such hunk in ${path}.`);
  if (state === 'rejected') return;
  const plan = await planReverts(workspace, [{ edit, file, hunks: [hunk] }]);
  await workspace.applyPlan(plan);
  edit.states.get(path)?.set(hunkId, 'rejected');
}

export function acceptHunk(edit: ReviewedEdit, path: string, hunkId: string): void {
  const states = edit.states.get(path);
  if (states?.get(hunkId) === undefined) throw new ReviewRefused(`No such hunk in ${path}.`);
  if (states.get(hunkId) === 'applied') states.set(hunkId, 'accepted');
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
  if (!file) throw new ReviewRefused(`No such file in this edit: ${path}.`);
  const current = await workspace.tryReadFile(path);
  const now = current?.text ?? '';
  if (file.op === 'create') return { before: '', now };
  return { before: revertAll(path, now, file, standing(edit, file)), now };
}
