import * as vscode from 'vscode';
import type { ApprovalMode, Transcript } from '../agent';
import type { Workspace } from '../workspace';
import type { ChatBackend } from './chat/chatController';
import { modalAsk } from './approvalPrompt';
import type { TaskQueue } from './taskQueue';

// The chat panel's backend in a window: the window's workspace, agents, queue and transcripts, a modal when
// no panel is there to ask on, VS Code's diff editor for "before this edit" against the file now (its left
// side served by the `loopwire-before` content provider), and the context keys the menus read.

/** What the window's session gives the chat. */
export interface WindowChat extends Pick<ChatBackend, 'agent' | 'sessionsDir' | 'log'> {
  workspace(): Promise<Workspace>;
  queue: TaskQueue;
  newTranscript(): Transcript;
  approvalMode(): ApprovalMode;
}

/** The most "before" texts kept for diffs still open. */
const KEPT = 20;

/** The chat's backend on `window`; the content provider it registers goes into `subscriptions`. */
export function windowChatBackend(window: WindowChat, subscriptions: vscode.Disposable[]): ChatBackend {
  const before = new Map<string, string>();
  const scheme = 'loopwire-before';
  subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(scheme, {
      provideTextDocumentContent: (uri) => before.get(uri.query) ?? '',
    }),
  );
  let diffs = 0;
  return {
    workspace: () => window.workspace(),
    agent: (transcript, approvals, emit) => window.agent(transcript, approvals, emit),
    enqueue: (run) => window.queue.run(run),
    newTranscript: () => window.newTranscript(),
    sessionsDir: window.sessionsDir,
    approvalMode: () => window.approvalMode(),
    askElsewhere: (request) => modalAsk()(request),
    openDiff: async (file, text, title) => {
      const key = String(++diffs);
      before.set(key, text);
      if (before.size > KEPT) before.delete(before.keys().next().value as string);
      const left = vscode.Uri.from({ scheme, path: `/${file}`, query: key });
      const right = vscode.Uri.file((await window.workspace()).locate(file).absolute);
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preserveFocus: true, preview: true });
    },
    log: (line) => window.log(line),
    changed: ({ busy, hasTranscript }) => {
      void vscode.commands.executeCommand('setContext', 'loopwire.running', busy);
      void vscode.commands.executeCommand('setContext', 'loopwire.hasTranscript', hasTranscript);
    },
  };
}
