// A plan as a git-style unified diff, for the CLI and logs, through jsdiff.
import { formatPatch, structuredPatch } from 'diff';
import type { EditPlan, FilePlan } from './editPlan';
import { contentString, splitText } from './textFormat';

/** How much to show. */
export interface DiffOptions {
  /** Unchanged lines around each change (default 3). */
  context?: number;
}

/** Text as the diff shows it: LF lines without BOM, so CRLF files read like any other. */
function shown(text: string | null, file: FilePlan): string {
  if (text === null) return '';
  const { lines } = splitText(text, file.format);
  return contentString(lines, file.format);
}

/** One file's part of the diff; a no-op file has none. */
function fileDiff(file: FilePlan, context: number): string {
  if (file.noop) return '';
  const oldName = file.op === 'create' ? '/dev/null' : `a/${file.path}`;
  const newName = file.op === 'delete' ? '/dev/null' : `b/${file.moveTo ?? file.path}`;
  const patch = structuredPatch(
    oldName,
    newName,
    shown(file.before, file),
    shown(file.after, file),
    undefined,
    undefined,
    {
      context,
    },
  );
  return formatPatch({
    ...patch,
    isGit: true,
    isCreate: file.op === 'create',
    isDelete: file.op === 'delete',
    isRename: file.op === 'move',
    ...(file.op === 'create' ? { newMode: '100644' } : {}),
    ...(file.op === 'delete' ? { oldMode: '100644' } : {}),
  });
}

/** The whole plan as one unified diff (`diff --git` headers, renames as `rename from/to`). */
export function renderUnifiedDiff(plan: EditPlan, options: DiffOptions = {}): string {
  return plan.files.map((file) => fileDiff(file, options.context ?? 3)).join('');
}

/** One line per file: `A path`, `D path`, `M path (+3 -1)`, `R from -> to (+0 -0)`, `= path (no change)`. */
export function summarizePlan(plan: EditPlan): string[] {
  return plan.files.map((file) => {
    const added = file.hunks.reduce((n, hunk) => n + hunk.newLines.length, 0);
    const removed = file.hunks.reduce((n, hunk) => n + hunk.oldLines.length, 0);
    const counts = `(+${added} -${removed})`;
    switch (file.op) {
      case 'create':
        return `A ${file.path} ${counts}`;
      case 'delete':
        return `D ${file.path} ${counts}`;
      case 'move':
        return `R ${file.path} -> ${file.moveTo ?? ''} ${counts}`;
      case 'update':
        return file.noop ? `= ${file.path} (no change)` : `M ${file.path} ${counts}`;
    }
  });
}
