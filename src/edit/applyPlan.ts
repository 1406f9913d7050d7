// Applying a plan with any subset of its hunks (per-hunk Accept/Reject), and inverting it.
import { type EditPlan, type FilePlan, makePlan } from './editPlan';
import { type EditError, fail } from './errors';
import { type Hunk, applyHunksAt, renumber } from './hunks';
import { invertHunk } from './rebase';
import { type Result, ok } from './result';
import { joinText, readingsOf } from './textFormat';

/** Which hunks to apply; all of them when `hunkIds` is absent. */
export interface ApplyOptions {
  hunkIds?: Iterable<string>;
}

/** `text` (read with the plan's own format) with exactly `hunks` applied at their positions. */
function applyTo(file: FilePlan, text: string, hunks: readonly Hunk[]): string | undefined {
  for (const reading of readingsOf(text, file.format)) {
    const applied = applyHunksAt(reading, hunks);
    if (applied) return joinText(applied);
  }
  return undefined;
}

const mismatch = (file: FilePlan) =>
  fail('hunk_conflict', `${file.path}: the plan's hunks do not fit its own before text; plan again.`, {
    path: file.path,
  });

/**
 * The plan restricted to the chosen hunks, with each file's `after` recomputed from `before`: what an
 * adapter writes. A create or delete happens only with its hunk chosen (an empty file's, which has none,
 * always); a move always happens; files left with nothing to do are dropped.
 */
export function applyPlan(plan: EditPlan, options: ApplyOptions = {}): Result<EditPlan, EditError> {
  const wanted = options.hunkIds === undefined ? undefined : new Set(options.hunkIds);
  if (wanted) {
    const known = new Set(plan.files.flatMap((file) => file.hunks.map((hunk) => hunk.id)));
    const unknown = [...wanted].find((id) => !known.has(id));
    if (unknown !== undefined) return fail('invalid_edit', `no hunk of this plan has the id ${unknown}.`);
  }
  const files: FilePlan[] = [];
  for (const file of plan.files) {
    const chosen = wanted ? file.hunks.filter((hunk) => wanted.has(hunk.id)) : file.hunks;
    if (file.op === 'create' || file.op === 'delete') {
      if (chosen.length === file.hunks.length) files.push(file);
      continue;
    }
    if (chosen.length === 0 && file.op !== 'move') continue;
    const after = applyTo(file, file.before ?? '', chosen);
    if (after === undefined) return mismatch(file);
    files.push({ ...file, hunks: renumber(chosen), after, noop: false });
  }
  return ok(makePlan(files));
}

/** The plan that undoes `plan`: applied to its `after` texts it gives back its `before` texts byte for byte. */
export function invertPlan(plan: EditPlan): Result<EditPlan, EditError> {
  const files: FilePlan[] = [];
  for (const file of [...plan.files].reverse()) {
    const path = file.moveTo ?? file.path;
    const hunks = file.hunks.map((hunk) => invertHunk(hunk, path));
    const base = { path, hunks, format: file.format, noop: file.noop, matches: [] };
    if (file.op === 'create') {
      files.push({ ...base, op: 'delete', before: file.after, after: null });
      continue;
    }
    if (file.op === 'delete') {
      files.push({ ...base, op: 'create', before: null, after: file.before });
      continue;
    }
    const after = applyTo(file, file.after ?? '', hunks);
    if (after === undefined) return mismatch(file);
    const inverted: FilePlan = { ...base, op: file.op, before: file.after, after };
    if (file.moveTo !== undefined) inverted.moveTo = file.path;
    files.push(inverted);
  }
  return ok(makePlan(files));
}
