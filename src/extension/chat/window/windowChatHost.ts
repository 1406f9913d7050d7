import * as vscode from 'vscode';
import type { ApprovalMode, Transcript } from '../../../agent';
import type { BackendInfo, Remedy } from '../../../protocol/chatView';
import type { Workspace } from '../../../workspace';
import type { ChatHost } from '../chatController';
import { modalAsk } from '../../trust/approvalPrompt';
import { machineSandbox } from '../../trust/windowSandbox';
import { BeforeDocuments } from '../../review/beforeSide';
import { readSettings } from '../../settings/settings';
import type { TaskQueue } from '../../runtime/taskQueue';

// The chat panel's backend in a window: the window's workspace, agents, queue and transcripts, a modal when
// no panel is there to ask on, VS Code's diff editor for "before this edit" against the file now (its left
// side from review/beforeSide.ts), files opened where the panel names them, which backend the chat talks to,
// and the context keys the menus read.

/** The command each remedy of a stop's line runs: the page names a remedy, and only these commands can follow. */
const REMEDY_COMMANDS: Record<Remedy, string> = {
  setApiKey: 'loopwire.setApiKey',
  selectEndpoint: 'loopwire.selectEndpoint',
  showLog: 'loopwire.showLog',
};

/** What the window's runtime gives the chat. */
export interface WindowChat extends Pick<ChatHost, 'agent' | 'sessionsDir' | 'log' | 'stopCommands' | 'slash'> {
  workspace(): Promise<Workspace>;
  queue: TaskQueue;
  newTranscript(): Transcript;
  approvalMode(): ApprovalMode;
}

/** The chat's backend on `window`; the content provider it registers goes into `subscriptions`. */
export function windowChatHost(window: WindowChat, subscriptions: vscode.Disposable[]): ChatHost {
  const before = new BeforeDocuments();
  subscriptions.push(before);
  return {
    workspace: () => window.workspace(),
    agent: (transcript, approvals, emit, tools) => window.agent(transcript, approvals, emit, tools),
    enqueue: (run) => window.queue.run(run),
    newTranscript: () => window.newTranscript(),
    stopCommands: () => window.stopCommands?.(),
    sessionsDir: window.sessionsDir,
    ...(window.slash ? { slash: window.slash } : {}),
    approvalMode: () => window.approvalMode(),
    sandbox: machineSandbox,
    askElsewhere: (request) => modalAsk()(request),
    openDiff: async (file, text, title) => {
      const right = vscode.Uri.file((await window.workspace()).locate(file).absolute);
      const left = await before.open(file, text);
      await vscode.commands.executeCommand('vscode.diff', left, right, title, { preserveFocus: true, preview: true });
    },
    openFile: async (file, line, column) => openWorkspaceFile(await window.workspace(), file, line, column),
    remedy: async (remedy) => void (await vscode.commands.executeCommand(REMEDY_COMMANDS[remedy])),
    backendInfo: () => backendInfo(readSettings(vscode.workspace.workspaceFolders?.[0]).endpoint),
    log: (line) => window.log(line),
    changed: ({ busy, hasTranscript }) => {
      void vscode.commands.executeCommand('setContext', 'loopwire.running', busy);
      void vscode.commands.executeCommand('setContext', 'loopwire.hasTranscript', hasTranscript);
    },
  };
}

/** Opens the workspace path `file` in an editor, at a 1-based line and column when given (a click: focused). */
async function openWorkspaceFile(workspace: Workspace, file: string, line?: number, column?: number): Promise<void> {
  let absolute: string;
  try {
    absolute = workspace.locate(file).absolute;
  } catch {
    throw new Error(`${file} is not in this workspace, so Loopwire does not open it.`);
  }
  const uri = vscode.Uri.file(absolute);
  const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
  if (!stat) throw new Error(`${file} does not exist (any more).`);
  if (stat.type & vscode.FileType.Directory) {
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  const options: vscode.TextDocumentShowOptions = { preview: true };
  if (line !== undefined) {
    const at = document.validatePosition(new vscode.Position(line - 1, Math.max(0, (column ?? 1) - 1)));
    options.selection = new vscode.Range(at, at);
  }
  await vscode.window.showTextDocument(document, options);
}

/** The endpoint as the empty chat names it: the bundled offline backend, or the endpoint's host. */
export function backendInfo(endpoint: string): BackendInfo {
  if (endpoint === 'embedded') return { label: 'built-in offline backend', offline: true };
  try {
    return { label: new URL(endpoint).host || endpoint, offline: false };
  } catch {
    return { label: endpoint, offline: false };
  }
}
