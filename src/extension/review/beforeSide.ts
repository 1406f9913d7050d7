import { parse, type ParseError } from 'jsonc-parser';
import * as vscode from 'vscode';

// The left side of "before Loopwire ↔ now" in VS Code's diff editor: read-only `loopwire-before:` documents
// holding the text as it was, named by the file's path so that they keep its language and colours.
//
// Language services validate what has their language, whatever the scheme: JSON's client selects documents
// by language alone, so (measured in the 1.139 host) a broken JSON "before" gets "Value expected" in
// Problems, served by a content provider or a read-only FileSystemProvider alike — as git's `git:` diffs do.
// TypeScript skips a few schemes by name (`git`, `vsls`, …) and reported nothing on a content provider's
// document (on a FileSystemProvider's it reported syntax errors: hence the content provider). No selector,
// provider kind or URI lets an extension opt out, so the document keeps its language unless it would be
// diagnosed; then it becomes plain text (no colours, and no diagnostics: the language client closes it and
// drops them) — before the diff shows it when we can tell (JSON that does not parse), else as soon as a
// diagnostic arrives for it (a JSON schema's warning on a tsconfig.json, a third-party linter).

export const BEFORE_SCHEME = 'loopwire-before';

/** The most "before" texts kept for diffs still open. */
const KEPT = 20;

export class BeforeDocuments implements vscode.Disposable {
  private readonly texts = new Map<string, string>();
  /** Keys unique to this window's runtime: a second provider of the scheme (tests) cannot answer for ours. */
  private readonly prefix = Math.random().toString(36).slice(2, 10);
  private count = 0;
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, {
        // Undefined for a key not ours (or evicted): VS Code asks the scheme's next provider, else says so.
        provideTextDocumentContent: (uri) => this.texts.get(uri.query),
      }),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) if (uri.scheme === BEFORE_SCHEME) void this.silence(uri);
      }),
    ];
  }

  /** A new document holding `text`, the workspace path `file` as it was; opened (not shown), ready to diff. */
  async open(file: string, text: string): Promise<vscode.Uri> {
    const key = `${this.prefix}-${++this.count}`;
    this.texts.set(key, text);
    if (this.texts.size > KEPT) this.texts.delete(this.texts.keys().next().value as string);
    const uri = vscode.Uri.from({ scheme: BEFORE_SCHEME, path: `/${file}`, query: key });
    const document = await vscode.workspace.openTextDocument(uri);
    if (wouldBeDiagnosed(document)) await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
    return uri;
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.texts.clear();
  }

  /** Diagnostics arrived for a "before" document: plain text from now on, which drops them. */
  private async silence(uri: vscode.Uri): Promise<void> {
    if (vscode.languages.getDiagnostics(uri).length === 0) return;
    const document = vscode.workspace.textDocuments.find((open) => open.uri.toString() === uri.toString());
    if (!document || document.languageId === 'plaintext') return;
    await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
  }
}

/** JSON that does not parse: the JSON language service would report it (comments are fine in JSONC). */
function wouldBeDiagnosed(document: vscode.TextDocument): boolean {
  if (document.languageId !== 'json' && document.languageId !== 'jsonc') return false;
  const errors: ParseError[] = [];
  parse(document.getText(), errors, { disallowComments: document.languageId === 'json', allowTrailingComma: false });
  return errors.length > 0;
}
