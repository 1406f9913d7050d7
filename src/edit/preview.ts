// Streaming previews: the hunks known so far while a model is still writing an apply_patch or edit_file
// call, against snapshots of the files (the live diff). Never throws; on complete input the hunks are the
// final plan's, since both go through the same planning code.
import { Allow, parse } from 'partial-json';
import { type FileOp, type FilePlan, type FileSnapshots, lookup } from './editPlan';
import type { EditError } from './errors';
import type { Hunk } from './hunks';
import { parsePartialPatch } from './patchParser';
import { planOp } from './planPatch';
import { type ReplacementsMemo, planEdits } from './planReplacements';
import type { ReplacementEdit } from './replacements';
import type { Result } from './result';

/** One file of a preview. */
export interface FilePreview {
  path: string;
  op: FileOp;
  moveTo?: string;
  /** The hunks known so far, as the final plan would number and name them. */
  hunks: Hunk[];
  /** Still being written: more hunks (or lines of the last one) may come. */
  pending: boolean;
  /** This file's section or edit is already known to fail (the final call will be refused). */
  error?: EditError;
}

/** The live diff of a call in progress. */
export interface EditPreview {
  files: FilePreview[];
  /** The text so far is already malformed (a line no continuation can fix). */
  error?: EditError;
}

function toPreview(path: string, op: FileOp, planned: Result<FilePlan, EditError>, pending: boolean): FilePreview {
  if (!planned.ok) return { path, op, hunks: [], pending, error: planned.error };
  const file = planned.value;
  const preview: FilePreview = { path, op: file.op, hunks: file.hunks, pending };
  if (file.moveTo !== undefined) preview.moveTo = file.moveTo;
  return preview;
}

/** The hunks of a partial apply_patch text so far, file by file. */
export function previewPatch(partialText: string, files: FileSnapshots): EditPreview {
  try {
    const partial = parsePartialPatch(partialText);
    const previews = partial.ops.map((op, i) => {
      const open = partial.open && i === partial.ops.length - 1 && !partial.error;
      const op0: FileOp =
        op.kind === 'add' ? 'create' : op.kind === 'delete' ? 'delete' : op.moveTo ? 'move' : 'update';
      return toPreview(op.path, op0, planOp(op, files, open), open);
    });
    return partial.error ? { files: previews, error: partial.error } : { files: previews };
  } catch {
    // Planning is total; this only guards the promise never to throw at a caller mid-stream.
    return { files: [] };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseLoose(text: string, allow: number): unknown {
  try {
    return parse(text, allow);
  } catch {
    return undefined;
  }
}

function completeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One memo per path being previewed (a few at most): results never depend on it, only the cost does. */
const memos = new Map<string, ReplacementsMemo>();

function memoFor(path: string): ReplacementsMemo {
  let memo = memos.get(path);
  if (!memo) {
    if (memos.size >= 8) memos.delete(memos.keys().next().value as string);
    memo = { path: '', text: '', edits: { start: { content: '', lines: [], origin: [] }, steps: [] } };
    memos.set(path, memo);
  }
  return memo;
}

/**
 * The hunks of partial edit_file arguments (`{"path": …, "edits": [{"old_string": …, "new_string": …}]}`)
 * so far. An edit is placed once its old_string is complete; its new_string shows as far as it has come.
 */
export function previewEditFile(partialJsonArgs: string, files: FileSnapshots): EditPreview {
  try {
    const whole = completeJson(partialJsonArgs);
    // Strings only where they are complete: tells a finished old_string from one still arriving.
    const settled = whole ?? parseLoose(partialJsonArgs, Allow.ALL & ~Allow.STR);
    const growing = whole ?? parseLoose(partialJsonArgs, Allow.ALL);
    if (!isRecord(settled) || !isRecord(growing) || typeof settled.path !== 'string') return { files: [] };
    const path = settled.path;
    const done = Array.isArray(settled.edits) ? settled.edits : [];
    const partial = Array.isArray(growing.edits) ? growing.edits : [];
    const edits: ReplacementEdit[] = [];
    for (const [i, item] of partial.entries()) {
      const fixed: unknown = done[i];
      if (!isRecord(item) || !isRecord(fixed) || typeof fixed.old_string !== 'string') break;
      const edit: ReplacementEdit = {
        old_string: fixed.old_string,
        new_string: typeof item.new_string === 'string' ? item.new_string : '',
      };
      if (fixed.replace_all === true) edit.replace_all = true;
      edits.push(edit);
    }
    const open = whole === undefined;
    const op: FileOp = lookup(files, path) ? 'update' : 'create';
    if (edits.length === 0) return { files: [{ path, op, hunks: [], pending: open }] };
    const planned = planEdits({ path, edits }, files, open, memoFor(path));
    if (!planned.ok) return { files: [toPreview(path, op, planned, open)] };
    const file = planned.value.files[0];
    return { files: file ? [toPreview(path, op, { ok: true, value: file }, open)] : [] };
  } catch {
    return { files: [] };
  }
}
