import * as vscode from 'vscode';

// Ctrl+I's prompt: an input box at the top of the window, with the lines it is about highlighted in the
// editor meanwhile (quick input has no position of its own, so the highlight says where the edit goes).
// Chosen over a comment thread on the line (the Comments API): the input box is keyboard-first as the
// editor's own inline chat is — Enter sends, Escape closes it and nothing else happens — with no gutter
// icon, no thread left behind to close and no menu contribution for its buttons, and it behaves the same in
// VS Code, code-server and the web; editor insets and view zones, where a prompt could sit between the
// lines, are proposed API.

const highlight = vscode.window.createTextEditorDecorationType({
  isWholeLine: true,
  backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  borderColor: new vscode.ThemeColor('focusBorder'),
  borderStyle: 'dashed',
  borderWidth: '0 0 0 2px',
});

/**
 * Asks what to do with lines `first`..`last` (1-based) of `editor`'s file (`where` names them); resolves to
 * the words typed and when Enter was pressed, or undefined when the box was closed (Escape, or focus
 * elsewhere).
 */
export function askInline(
  editor: vscode.TextEditor,
  where: string,
  first: number,
  last: number,
): Promise<{ text: string; at: number } | undefined> {
  const box = vscode.window.createInputBox();
  box.title = vscode.l10n.t('Loopwire: Edit Inline — {0}', where);
  box.placeholder = vscode.l10n.t('Describe the change to these lines (Enter to send, Escape to close)');
  box.prompt = vscode.l10n.t('The edit streams into the editor; Keep or Undo it there.');
  box.ignoreFocusOut = false;
  editor.setDecorations(highlight, [new vscode.Range(first - 1, 0, last - 1, 0)]);
  return new Promise((resolve) => {
    let answer: { text: string; at: number } | undefined;
    box.onDidAccept(() => {
      const text = box.value.trim();
      if (text === '') {
        box.validationMessage = vscode.l10n.t('Type what to change, or Escape to close.');
        return;
      }
      answer = { text, at: performance.now() };
      // Sent now, not once the box reports it has closed: that is a round trip to the window (~60 ms warm)
      // before the request could leave, on the path to the first changed line (the inline bench's finding).
      resolve(answer);
      box.hide();
    });
    box.onDidHide(() => {
      editor.setDecorations(highlight, []);
      box.dispose();
      resolve(answer);
    });
    box.show();
  });
}
