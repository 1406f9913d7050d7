import * as vscode from 'vscode';
import type { Diagnostic, Severity } from '../workspace';

// Diagnostics from the language services, as the port reports them; and, after an edit, the errors that
// appeared in the edited files once the services have had a moment to look.

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

export function toDiagnostic(path: string, diagnostic: vscode.Diagnostic): Diagnostic {
  const source = diagnostic.source;
  return {
    path,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITY[diagnostic.severity],
    ...(source ? { source } : {}),
    message: diagnostic.message,
  };
}

const key = (d: vscode.Diagnostic) => `${d.severity}\0${d.message}\0${d.source ?? ''}`;

/**
 * Waits up to `settleMs` for the language services to report on `uris` after an edit (returning early
 * once they have and gone quiet), then gives the errors that were not there before.
 */
export async function newErrorsAfter(
  uris: readonly vscode.Uri[],
  before: ReadonlyMap<string, readonly vscode.Diagnostic[]>,
  settleMs: number,
): Promise<Array<{ uri: vscode.Uri; diagnostic: vscode.Diagnostic }>> {
  if (uris.length === 0 || settleMs <= 0) return [];
  const watched = new Set(uris.map((uri) => uri.toString()));
  await new Promise<void>((resolve) => {
    let quiet: NodeJS.Timeout | undefined;
    const deadline = setTimeout(done, settleMs);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((uri) => watched.has(uri.toString()))) return;
      clearTimeout(quiet);
      quiet = setTimeout(done, 150);
    });
    function done() {
      clearTimeout(deadline);
      clearTimeout(quiet);
      listener.dispose();
      resolve();
    }
  });
  const found: Array<{ uri: vscode.Uri; diagnostic: vscode.Diagnostic }> = [];
  for (const uri of uris) {
    const old = new Set((before.get(uri.toString()) ?? []).map(key));
    for (const diagnostic of vscode.languages.getDiagnostics(uri))
      if (diagnostic.severity === vscode.DiagnosticSeverity.Error && !old.has(key(diagnostic)))
        found.push({ uri, diagnostic });
  }
  return found;
}
