import { t } from '@vscode/l10n';
import { z } from 'zod';
import { argumentPaths } from './callPaths';
import { summarizeArgument } from './callSummary';
import { formatDiagnostic } from './commitPlan';
import { defineTool, success } from './tool';
import { refusal } from './toolErrors';

export const DIAGNOSTICS_MAX = 200;

export const GetDiagnosticsArgs = z.object({
  path: z.string().min(1).optional().describe('Only this file (workspace-relative). Default: the whole workspace.'),
});

const ORDER = { error: 0, warning: 1, info: 2, hint: 3 } as const;

export const getDiagnosticsTool = defineTool({
  name: 'get_diagnostics',
  description:
    "Errors and warnings the editor's language services report (compiler, linter), one per line: " +
    '`path:line:col severity source: message`, errors first.',
  args: GetDiagnosticsArgs,
  effect: 'read',
  requires: 'diagnostics',
  summarize: summarizeArgument('path'),
  paths: argumentPaths('path'),
  async run(args, { workspace }) {
    if (!workspace.capabilities.diagnostics) {
      return refusal(
        'Diagnostics are not available here: this workspace runs without an editor or language service. ' +
          "Run the project's checker instead (list_tasks, then run_task, e.g. a build or lint task).",
        () => t('Diagnostics are not available here: this workspace runs without an editor or language service.'),
      );
    }
    const all = (await workspace.diagnostics(args.path)).filter(
      (d) => d.severity === 'error' || d.severity === 'warning',
    );
    const scope = args.path === undefined ? 'the workspace' : args.path;
    if (all.length === 0) return success(`No errors or warnings in ${scope}.`);
    all.sort(
      (a, b) =>
        ORDER[a.severity] - ORDER[b.severity] ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column),
    );
    const errors = all.filter((d) => d.severity === 'error').length;
    const counts = `${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} warning${all.length - errors === 1 ? '' : 's'} in ${scope}`;
    const shown = all.slice(0, DIAGNOSTICS_MAX).map(formatDiagnostic).join('\n');
    const footer =
      all.length > DIAGNOSTICS_MAX ? `(showing ${DIAGNOSTICS_MAX} of ${all.length}: ${counts})` : `(${counts})`;
    return success(`${shown}\n${footer}`);
  },
});
