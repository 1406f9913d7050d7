import * as vscode from 'vscode';
import { type ReviewReport, parseReview, prepareReview } from '../../agent';
import type { WindowRuntime } from '../windowRuntime';
import { ReviewComments, findingPrompt } from './reviewComments';
import { runReview } from './reviewRun';

// Loopwire: Review Changes (the palette, the Source Control view's title bar): the changes of a repository
// reviewed as `/review` does (src/agent/review), as one task on the window's runtime in the read-only mode with
// only the tools that read, the findings shown as comment threads on their lines (reviewComments.ts). From
// the Source Control view the repository is the one whose title bar it was; from the palette, the first
// folder's. A string argument is the target (`A..B`, `--base main`), as after `/review`.

let comments: ReviewComments | undefined;

/** The window's review threads, made once and disposed with the extension. */
function reviewComments(context: vscode.ExtensionContext): ReviewComments {
  if (comments) return comments;
  const made = new ReviewComments();
  context.subscriptions.push(made, { dispose: () => (comments = undefined) });
  comments = made;
  return made;
}

/** Runs a review and shows its findings; the report, or undefined where it did not run. */
export async function reviewChanges(
  current: () => WindowRuntime,
  context: vscode.ExtensionContext,
  args: unknown[],
): Promise<ReviewReport | undefined> {
  const root = rootOf(args[0]);
  if (root === undefined) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a folder with a git repository to review its changes.'),
    );
    return undefined;
  }
  const target = typeof args[0] === 'string' ? args[0] : '';
  const request = await prepareReview(root, target);
  if ('problem' in request) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Loopwire could not review the changes: {0}', request.problem));
    return undefined;
  }
  const outcome = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Loopwire is reviewing the changes…'),
      cancellable: true,
    },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return runReview(current(), request.prompt, request.tools, abort.signal);
    },
  );
  if (!outcome.ok) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The review did not finish: {0}', outcome.reason));
    return undefined;
  }
  const report = parseReview(outcome.answer, root);
  reviewComments(context).show(root, report.findings);
  tell(report);
  inChat(current(), report);
  return report;
}

/** The findings in the chat too, a line each under the review's count (made if the panel never showed). */
function inChat(runtime: WindowRuntime, report: ReviewReport): void {
  const chat = runtime.chat.model;
  const count = report.findings.length;
  chat.notice(
    'info',
    count === 0
      ? vscode.l10n.t('Loopwire reviewed the changes: no findings.')
      : count === 1
        ? vscode.l10n.t('Loopwire reviewed the changes: 1 finding, shown as a comment on its line.')
        : vscode.l10n.t('Loopwire reviewed the changes: {0} findings, shown as comments on their lines.', count),
  );
  for (const finding of report.findings) {
    const where = `${finding.file}:${finding.line}`;
    const line = vscode.l10n.t('{0} at {1}: {2}', finding.severity.toUpperCase(), where, finding.title);
    chat.notice(finding.severity === 'low' ? 'info' : 'warning', line);
  }
}

/** What the review found, in a notification; what of its answer could not be used, as a warning. */
function tell(report: ReviewReport): void {
  const count = report.findings.length;
  if (report.problems?.length) void vscode.window.showWarningMessage(report.problems.join(' '));
  void vscode.window.showInformationMessage(
    count === 0
      ? vscode.l10n.t('Loopwire reviewed the changes: no findings.')
      : count === 1
        ? vscode.l10n.t('Loopwire reviewed the changes: 1 finding, shown as a comment on its line.')
        : vscode.l10n.t('Loopwire reviewed the changes: {0} findings, shown as comments on their lines.', count),
  );
}

/** The repository's folder: the Source Control view's (its rootUri), else the window's first folder. */
function rootOf(arg: unknown): string | undefined {
  const rootUri = typeof arg === 'object' && arg !== null ? (arg as { rootUri?: unknown }).rootUri : undefined;
  if (rootUri instanceof vscode.Uri && rootUri.scheme === 'file') return rootUri.fsPath;
  return vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath;
}

/** Fix with Loopwire on a finding's thread: the inline fix on its lines, asked with the finding. */
export async function fixFinding(
  current: () => WindowRuntime,
  fixInline: (current: () => WindowRuntime, args: unknown[]) => Promise<string | undefined>,
  thread: unknown,
): Promise<void> {
  const shown = comments?.findingOf(thread);
  if (shown === undefined) return;
  comments?.resolved(thread as vscode.CommentThread);
  await fixInline(current, [shown.uri, shown.range, findingPrompt(shown.finding)]);
}
