import * as vscode from 'vscode';

// An inline edit the offline model has no scenario for (Ctrl+I with a prompt of the user's own) writes nothing,
// and its answer — a few sentences for the chat or a terminal — would be squeezed into a one-line toast. What the
// user needs there is the remedy: a line that says why and the button that chooses a real model.

/** The short notice for an inline edit the offline model could not answer, with Select Endpoint…. */
export async function showOfflineNotice(): Promise<void> {
  const select = vscode.l10n.t('Select Endpoint…');
  const picked = await vscode.window.showInformationMessage(
    vscode.l10n.t('Loopwire’s offline model knows only the demo’s tasks. Choose a real model to edit this.'),
    select,
  );
  if (picked === select) await vscode.commands.executeCommand('loopwire.selectEndpoint');
}
