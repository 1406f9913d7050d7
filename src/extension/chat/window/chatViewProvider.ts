import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { PostToPage } from '../chatPort';
import { PANEL_STYLES, chatHtml } from './chatHtml';

// The sidebar chat panel's webview. It only carries messages: the conversation lives in the window's
// session (dist/runtime.js, loaded when the panel first shows), so hiding the panel or reloading it loses
// nothing and a stream in progress goes on.

/** What the page talks to: the window's chats (deck/chatDeck.ts), or one chat. */
export interface PanelChat {
  attach(post: PostToPage | undefined): void;
  receive(message: unknown): Promise<void>;
}

export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewType = 'loopwire.chat';
  private view: vscode.WebviewView | undefined;
  /** The activity-bar badge (calls waiting for approval), kept for a view resolved again. */
  private shownBadge: vscode.ViewBadge | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly chat: () => PanelChat,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.badge = this.shownBadge;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    const asUri = (...parts: string[]) =>
      view.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource,
      scriptUri: asUri('dist', 'webview.js'),
      styleUris: [asUri('dist', 'codicons', 'codicon.css'), ...PANEL_STYLES.map((style) => asUri(...style.split('/')))],
      nonce: randomBytes(16).toString('base64'),
      l10n: { language: vscode.env.language, bundle: vscode.l10n.bundle },
    });
    // The page takes a while to load in the renderer: meanwhile the host loads the session behind it (and
    // starts what a first prompt needs), so that neither waits for the other.
    const early = setTimeout(() => this.chat(), 0);
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => {
        const chat = this.chat();
        // Whether it was delivered: a hidden view's page is gone (Add to Chat keeps its chips for the next one).
        chat.attach((out) => (view.visible ? view.webview.postMessage(out) : false));
        void chat.receive(message);
      }),
      view.onDidDispose(() => {
        clearTimeout(early);
        this.view = undefined;
        this.chat().attach(undefined);
        for (const subscription of subscriptions) subscription.dispose();
      }),
    ];
  }

  /** Shows the panel (keeping the editor's focus unless asked) and resolves once it is there. */
  async reveal(focus = false): Promise<void> {
    if (this.view) this.view.show(!focus);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
    if (!focus) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  }

  /** The view's badge on the Loopwire activity-bar item; undefined: none. */
  set badge(badge: vscode.ViewBadge | undefined) {
    this.shownBadge = badge;
    if (this.view) this.view.badge = badge;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }
}
