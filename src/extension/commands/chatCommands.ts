import * as vscode from 'vscode';
import { addToChatAttachments } from './addToChat';
import type { ChatViewProvider } from '../chat/window/chatViewProvider';
import { explainPrompt } from './explainSelection';
import { fixPrompt } from './fixWithLoopwire';
import type { WindowRuntime } from '../windowRuntime';

// The commands that put something in the chat panel: Fix in Chat, New Chat, Ask…, Explain Selection,
// Add to Chat, and Open Transcript. The session is loaded by the first of them that needs it.

/** Sends a prompt to the chat panel's conversation (revealing it, keeping focus where it is unless asked). */
export async function askInChat(
  chat: ChatViewProvider,
  current: () => WindowRuntime,
  prompt: string,
  focus = false,
): ReturnType<WindowRuntime['chat']['ask']> {
  await chat.reveal(focus);
  return current().chat.ask(prompt);
}

type Ask = (prompt: string, focus?: boolean) => ReturnType<typeof askInChat>;

export function chatCommands(
  chat: ChatViewProvider,
  current: () => WindowRuntime,
  started: () => WindowRuntime | undefined,
): vscode.Disposable[] {
  const ask: Ask = (prompt, focus = false) => askInChat(chat, current, prompt, focus);
  return [
    vscode.commands.registerCommand('loopwire.fix', (uri?: vscode.Uri, range?: vscode.Range, message?: string) =>
      fixInChat(ask, uri, range, message),
    ),
    vscode.commands.registerCommand('loopwire.newChat', async () => {
      await chat.reveal(true);
      current().chats.newChat();
    }),
    vscode.commands.registerCommand('loopwire.ask', () => askFromInputBox(ask)),
    vscode.commands.registerCommand('loopwire.explain', () => explainSelection(ask)),
    vscode.commands.registerCommand('loopwire.addToChat', async (uri?: vscode.Uri, uris?: vscode.Uri[]) => {
      const attachments = await addToChatAttachments(uri instanceof vscode.Uri ? uri : undefined, uris);
      if (attachments.length === 0)
        return say(vscode.l10n.t('Add to Chat attaches files and folders of the workspace.'));
      await chat.reveal(true);
      current().chat.attachments.add(attachments);
    }),
    vscode.commands.registerCommand('loopwire.openTranscript', async () => {
      const file = started()?.chat.transcriptFile;
      if (!file) return say(vscode.l10n.t('No chat yet in this window: its transcript is written once you ask.'));
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    }),
  ];
}

/** Why a command did nothing: it was run where it has nothing to work on. */
function say(message: string): undefined {
  void vscode.window.showInformationMessage(message);
  return undefined;
}

/** Fix in Chat: the quick fix gives the problem's file, range and message. */
async function fixInChat(ask: Ask, uri?: vscode.Uri, range?: vscode.Range, message?: string) {
  if (!uri || !range || message === undefined)
    return say(vscode.l10n.t('Fix in Chat runs from the quick-fix menu of a problem.'));
  const document = await vscode.workspace.openTextDocument(uri);
  return ask(fixPrompt(document, range, message));
}

async function askFromInputBox(ask: Ask) {
  const prompt = await vscode.window.showInputBox({
    title: vscode.l10n.t('Loopwire: Ask'),
    prompt: vscode.l10n.t('A task or a question about this workspace; the answer appears in the chat panel.'),
    ignoreFocusOut: true,
  });
  if (prompt && prompt.trim() !== '') return ask(prompt.trim(), true);
  return undefined;
}

function explainSelection(ask: Ask) {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty)
    return say(vscode.l10n.t('Select some code first: Loopwire explains the selection.'));
  return ask(explainPrompt(editor.document, editor.selection));
}
