import {
  type EditPlan,
  type FileSnapshot,
  LEVEL_LABELS,
  type ReadStamp,
  checkStale,
  renderUnifiedDiff,
  summarizePlan,
} from '../edit';
import { type Diagnostic, type WorkspaceFile, normalizeWorkspacePath } from '../workspace';
import { fromEditError } from './toolErrors';
import { type EditedFile, type ToolContext, type ToolResult, success } from './tool';

// The last steps every editing tool shares: the stale-read guard, the adapter's all-or-nothing write, the
// read ledger brought up to date, and an answer with what changed (the diff) and what broke (diagnostics).

/** Lines of diff in one answer; a whole-file write of a big file would otherwise flood the context. */
export const DIFF_MAX_LINES = 400;

/** The files a plan was computed against, by the path the plan names them with. */
export type PlannedFrom = ReadonlyMap<string, WorkspaceFile>;

export async function commitPlan(
  plan: EditPlan,
  from: PlannedFrom,
  { workspace, reads }: ToolContext,
): Promise<ToolResult> {
  if (plan.noop) {
    const names = plan.files.map((file) => file.path).join(', ');
    return success(
      `No change: ${names} already ${plan.files.length === 1 ? 'reads' : 'read'} that way. Nothing was written.`,
    );
  }
  // A file this session never read is judged by the edit itself (it matched the file as it is now); one it
  // read is held to that read: changed since, every hunk must still fit exactly, or the edit is refused.
  const current = new Map<string, FileSnapshot>();
  const stamps = new Map<string, ReadStamp>();
  for (const [given, file] of from) {
    current.set(given, { text: file.text, version: file.version });
    stamps.set(given, reads.stamp(file.path) ?? { version: file.version });
  }
  const checked = checkStale(plan, current, stamps);
  if (!checked.ok) return fromEditError(checked.error);
  const applied = await workspace.applyPlan(checked.value);
  const edits: EditedFile[] = [];
  for (const file of checked.value.files) {
    const path = from.get(file.path)?.path ?? canonical(file.path);
    if (file.op === 'delete' || file.op === 'move') reads.forget(path);
    const written = file.op === 'move' ? canonical(file.moveTo ?? file.path) : path;
    const version = applied.versions[written];
    if (file.after !== null && version !== undefined) reads.record({ path: written, text: file.after, version });
    if (!file.noop)
      edits.push({
        path: written,
        op: file.op,
        ...(file.op === 'move' ? { movedFrom: path } : {}),
        hunks: file.hunks,
        format: file.format,
      });
  }
  return { ...success(describe(checked.value, applied.diagnostics)), edits };
}

/** The adapter's name for a path the plan gives as the model wrote it (`./a.ts` is `a.ts`). */
function canonical(path: string): string {
  try {
    return normalizeWorkspacePath(path);
  } catch {
    return path;
  }
}

function describe(plan: EditPlan, diagnostics: readonly Diagnostic[]): string {
  const parts = [summarizePlan(plan).join('\n')];
  const loose = plan.files.flatMap((file) =>
    file.matches
      .filter((match) => match.level !== 'exact' || match.reindented)
      .map((match) => {
        const what = match.chunk !== undefined ? `chunk ${match.chunk}` : `edit ${match.edit ?? '?'}`;
        const how = match.level === 'exact' ? 'exactly' : LEVEL_LABELS[match.level];
        return `${file.path}: ${what} matched ${how} at line ${match.line}${match.reindented ? ', re-indented to the file' : ''}`;
      }),
  );
  if (loose.length > 0) parts.push(loose.join('\n'));
  const diff = renderUnifiedDiff(plan).trimEnd().split('\n');
  parts.push(
    diff.length > DIFF_MAX_LINES
      ? `${diff.slice(0, DIFF_MAX_LINES).join('\n')}\n(diff cut at ${DIFF_MAX_LINES} of ${diff.length} lines; read the file to see the rest)`
      : diff.join('\n'),
  );
  if (diagnostics.length > 0)
    parts.push(`New problems in the edited files:\n${diagnostics.map(formatDiagnostic).join('\n')}`);
  return parts.join('\n\n');
}

/** `path:line:col severity source: message`, the form get_diagnostics uses too. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.path}:${d.line}:${d.column} ${d.severity}${d.source ? ` ${d.source}` : ''}: ${d.message}`;
}
