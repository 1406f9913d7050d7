import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LoopwireApi } from './api';
import { addToChatAttachments } from './addToChat';
import { ChatViewProvider } from './chatView';
import { explainPrompt } from './explainSelection';
import { FixWithLoopwire, fixPrompt } from './fixWithLoopwire';
import { KEEP_COMMAND, UNDO_COMMAND, reviewFromEditor } from './review/reviewCommands';
import { selectEndpoint } from './selectEndpoint';
import { SECRET_KEY } from './settings';
import { statusItem } from './statusItem';
import type * as SessionModule from './workspaceSession';
import type { WorkspaceSession } from './workspaceSession';

/**
 * The session lives in its own bundle (dist/session.js, beside this one): required the first time a tool or
 * a task is asked for, so a window that never uses Loopwire never loads it.
 */
function loadSession(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  status: ReturnType<typeof statusItem>,
): WorkspaceSession {
  const started = performance.now();
  const load = createRequire(__filename);
  const { WorkspaceSession: Session } = load(path.join(__dirname, 'session.js')) as typeof SessionModule;
  const session = new Session(context, log);
  log.info(`session loaded in ${(performance.now() - started).toFixed(1)} ms`);
  context.subscriptions.push(
    session,
    session.onEvent((event) => {
      status.update(event);
      if (event.type === 'turn_finished') {
        const m = event.metrics;
        log.info(
          `turn ${m.turn} over ${m.transport}${m.chained ? ' (chained)' : ''}: overhead ${(m.overheadBeforeMs + (m.overheadAfterMs ?? 0)).toFixed(2)} ms,${m.gapMs === null ? '' : ` gap ${m.gapMs.toFixed(2)} ms,`} first event ${m.timeToFirstEventMs.toFixed(1)} ms, model ${m.modelMs.toFixed(1)} ms, tools ${m.toolMs.toFixed(1)} ms, ${m.bytesSent} B sent, ${m.inputTokens} input tokens (${m.cachedTokens} cached)`,
        );
      } else if (event.type === 'error') log.warn(`${event.code}: ${event.message}`);
    }),
  );
  return session;
}

/**
 * Activation registers what the manifest contributes and nothing more: the backend, the socket and the
 * workspace adapter start on first use, so Loopwire costs nothing in windows that never call it.
 */
export function activate(context: vscode.ExtensionContext): LoopwireApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Loopwire', { log: true });
  let session: WorkspaceSession | undefined;
  const status = statusItem();
  const current = () => (session ??= loadSession(context, log, status));
  const chat = new ChatViewProvider(context.extensionUri, () => current().chat);
  /** Sends a prompt to the chat panel's conversation (revealing it, keeping focus where it is unless asked). */
  const askInChat = async (prompt: string, focus = false) => {
    await chat.reveal(focus);
    return current().chat.ask(prompt);
  };
  context.subscriptions.push(
    status.item,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chat),
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixWithLoopwire(), FixWithLoopwire.metadata),
    vscode.commands.registerCommand(
      'loopwire.fix',
      async (uri?: vscode.Uri, range?: vscode.Range, message?: string) => {
        if (!uri || !range || message === undefined) {
          void vscode.window.showInformationMessage('Fix with Loopwire runs from the quick-fix menu of a problem.');
          return undefined;
        }
        const document = await vscode.workspace.openTextDocument(uri);
        return askInChat(fixPrompt(document, range, message));
      },
    ),
    vscode.commands.registerCommand('loopwire.newChat', async () => {
      await chat.reveal(true);
      current().chat.newChat();
    }),
    vscode.commands.registerCommand('loopwire.ask', async () => {
      const prompt = await vscode.window.showInputBox({
        title: 'Loopwire: Ask',
        prompt: 'A task or a question about this workspace; the answer appears in the chat panel.',
        ignoreFocusOut: true,
      });
      if (prompt && prompt.trim() !== '') return askInChat(prompt.trim(), true);
      return undefined;
    }),
    vscode.commands.registerCommand('loopwire.explain', () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) {
        void vscode.window.showInformationMessage('Select some code first: Loopwire explains the selection.');
        return undefined;
      }
      return askInChat(explainPrompt(editor.document, editor.selection));
    }),
    vscode.commands.registerCommand('loopwire.addToChat', async (uri?: vscode.Uri, uris?: vscode.Uri[]) => {
      const attachments = await addToChatAttachments(uri instanceof vscode.Uri ? uri : undefined, uris);
      if (attachments.length === 0) {
        void vscode.window.showInformationMessage('Add to Chat attaches files and folders of the workspace.');
        return;
      }
      await chat.reveal(true);
      current().chat.attachments.add(attachments);
    }),
    vscode.commands.registerCommand('loopwire.selectEndpoint', () => selectEndpoint()),
    vscode.commands.registerCommand('loopwire.openTranscript', async () => {
      const file = session?.chat.transcriptFile;
      if (!file) {
        void vscode.window.showInformationMessage(
          'No chat yet in this window: its transcript is written once you ask.',
        );
        return;
      }
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    }),
    vscode.commands.registerCommand('loopwire.stop', () => session?.chat.stop()),
    // The editor's Keep / Undo lenses (review/editorMarks.ts): they exist only once the chat does.
    vscode.commands.registerCommand(KEEP_COMMAND, (hunk?: unknown) => reviewFromEditor(session?.chat, hunk, 'accept')),
    vscode.commands.registerCommand(UNDO_COMMAND, (hunk?: unknown) => reviewFromEditor(session?.chat, hunk, 'reject')),
    log,
    vscode.commands.registerCommand('loopwire.showLog', () => log.show(true)),
    vscode.commands.registerCommand('loopwire.setApiKey', async () => {
      const key = await vscode.window.showInputBox({
        title: 'Loopwire: API key for the endpoint',
        prompt: 'Kept in VS Code’s secret storage, never in settings or logs.',
        password: true,
        ignoreFocusOut: true,
      });
      if (key === undefined) return;
      if (key.trim() === '') await context.secrets.delete(SECRET_KEY);
      else await context.secrets.store(SECRET_KEY, key.trim());
      log.info(key.trim() === '' ? 'API key removed' : 'API key stored');
    }),
  );
  const manifestVersion = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof manifestVersion === 'string' ? manifestVersion : '0.0.0';
  log.info(`Loopwire ${version} activated in ${(performance.now() - started).toFixed(1)} ms`);
  return {
    version,
    tools: {
      list: () => current().toolNames(),
      run: (name, args) => current().runTool(name, args),
    },
    agent: {
      run: (prompt, options) => current().runTask(prompt, options?.approve),
    },
    chat: {
      ask: (prompt) => askInChat(prompt),
      newChat: () => Promise.resolve(vscode.commands.executeCommand('loopwire.newChat')).then(() => undefined),
      view: () => session?.chat.shown,
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
