import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewFinding } from '../../agent';

// A review's findings where the code is: one comment thread per finding on its lines (VS Code's comments
// API), titled with its severity and title, its body and suggested fix in the comment, and **Fix with
// Loopwire** in the thread's title bar (package.json's comments/commentThread/title menu), which hands the
// finding to the inline fix on those lines. A new review replaces the last one's threads. What the model wrote
// is shown as Markdown that is not trusted: no command links, no HTML.

export const REVIEW_CONTROLLER_ID = 'loopwire.review';
/** The thread's context value, which the Fix with Loopwire menu entry is shown for. */
export const FINDING_CONTEXT = 'loopwire.finding';

interface Shown {
  uri: vscode.Uri;
  range: vscode.Range;
  finding: ReviewFinding;
}

export class ReviewComments implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(
    REVIEW_CONTROLLER_ID,
    vscode.l10n.t('Loopwire Review'),
  );
  private threads: vscode.CommentThread[] = [];
  private readonly shown = new WeakMap<vscode.CommentThread, Shown>();

  /** The findings of a review of the repository at `root`, each as a thread on its lines; the last review's go. */
  show(root: string, findings: readonly ReviewFinding[]): vscode.CommentThread[] {
    this.clear();
    for (const finding of findings) {
      const uri = vscode.Uri.file(path.join(root, ...finding.file.split('/')));
      const last = Math.max(finding.line, finding.end_line ?? finding.line);
      const range = new vscode.Range(finding.line - 1, 0, last - 1, 0);
      const comment: vscode.Comment = {
        body: commentBody(finding),
        mode: vscode.CommentMode.Preview,
        author: { name: 'Loopwire' },
        label: finding.severity,
      };
      const thread = this.controller.createCommentThread(uri, range, [comment]);
      thread.label = `${finding.severity.toUpperCase()}: ${finding.title}`;
      thread.canReply = false;
      thread.contextValue = FINDING_CONTEXT;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      this.shown.set(thread, { uri, range, finding });
      this.threads.push(thread);
    }
    return this.threads;
  }

  /** The finding a thread shows, where it is one of this review's. */
  findingOf(thread: unknown): Shown | undefined {
    return typeof thread === 'object' && thread !== null ? this.shown.get(thread as vscode.CommentThread) : undefined;
  }

  /** A thread whose finding was handed to a fix: shown as resolved. */
  resolved(thread: vscode.CommentThread): void {
    thread.state = vscode.CommentThreadState.Resolved;
  }

  clear(): void {
    for (const thread of this.threads) thread.dispose();
    this.threads = [];
  }

  dispose(): void {
    this.clear();
    this.controller.dispose();
  }
}

/** The comment: the finding's body, then its suggested fix as code; untrusted Markdown. */
function commentBody(finding: ReviewFinding): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(undefined, false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  markdown.appendMarkdown(finding.body.trim() === '' ? finding.title : finding.body);
  const suggestion = finding.suggestion?.trim();
  if (suggestion) {
    markdown.appendMarkdown(`\n\n${vscode.l10n.t('Suggested fix:')}\n`);
    markdown.appendCodeblock(suggestion);
  }
  return markdown;
}

/** What the inline fix is asked: the finding, its why and its suggested fix. */
export function findingPrompt(finding: ReviewFinding): string {
  const suggestion = finding.suggestion?.trim();
  const body = finding.body.trim();
  return `${finding.title}${body ? `. ${body}` : ''}${suggestion ? ` Suggested fix: ${suggestion}` : ''}`;
}
