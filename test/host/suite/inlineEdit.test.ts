import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, loopwire, readFixture, writeFixture } from './support';

// The inline fix in the real extension host: the light bulb offers it first, its edit lands in the buffer
// (unsaved), and Undo takes back the agent's lines only — a line the user typed meanwhile stays. The editor's
// own undo takes the whole fix back in one step and its redo brings it back, the lenses following (issue 47).
// The scenario answers the inline prompt the command builds.

const BROKEN = '{\n  "port": 8080,,\n  "host": "localhost"\n}\n';

describe('Fix with Loopwire, inline', () => {
  after(async () => {
    const config = vscode.workspace.getConfiguration('loopwire');
    await config.update('scenarioFiles', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('is offered before Fix in Chat; its edit streams into the buffer, and Undo keeps what the user typed', async () => {
    await loopwire();
    const uri = await writeFixture('inline/settings.json', BROKEN);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    const [problem] = await eventually(
      () => {
        const found = vscode.languages.getDiagnostics(uri);
        return found.length > 0 && found;
      },
      { timeoutMs: 20_000, message: 'the diagnostic' },
    );
    assert.ok(problem);
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        problem.range,
      )) ?? [];
    const titles = actions.map((action) => action.title);
    assert.ok(titles.indexOf('Fix with Loopwire') >= 0, titles.join(', '));
    assert.ok(titles.indexOf('Fix with Loopwire') < titles.indexOf('Fix in Chat'), titles.join(', '));
    // In read-only (and plan) an inline edit may not write the file: Fix in Chat alone is offered.
    const config = vscode.workspace.getConfiguration('loopwire');
    await config.update('approval', 'read-only', vscode.ConfigurationTarget.Global);
    try {
      const readOnly = (
        (await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          uri,
          problem.range,
        )) ?? []
      ).map((action) => action.title);
      assert.ok(!readOnly.includes('Fix with Loopwire') && readOnly.includes('Fix in Chat'), readOnly.join(', '));
    } finally {
      await config.update('approval', undefined, vscode.ConfigurationTarget.Global);
    }

    const scenario = {
      scenarios: [
        {
          name: 'inline-fix-settings',
          match: '^Fix this problem inline in inline/settings\\.json',
          steps: [
            {
              // The note beside the edit: the task ends on it, no closing answer is asked for (editEnd.ts).
              output: [
                { type: 'message', text: 'Removed the extra comma.' },
                {
                  type: 'function_call',
                  name: 'edit_file',
                  arguments: { path: 'inline/settings.json', edits: [{ old_string: '8080,,', new_string: '8080,' }] },
                },
              ],
            },
          ],
        },
      ],
    };
    await writeFixture('inline/scenario.json', JSON.stringify(scenario));
    await config.update('scenarioFiles', ['inline/scenario.json'], vscode.ConfigurationTarget.Workspace);
    const inline = actions.find((action) => action.title === 'Fix with Loopwire');
    assert.ok(inline?.command);
    const summary = await vscode.commands.executeCommand<string | undefined>(
      inline.command.command,
      ...((inline.command.arguments ?? []) as unknown[]),
    );
    assert.equal(summary, 'Removed the extra comma.');
    const fixed = BROKEN.replace(',,', ',');
    assert.equal(editor.document.getText(), fixed);
    assert.equal(await readFixture('inline/settings.json'), BROKEN, 'nothing saved before Keep');

    // The user types a line elsewhere; Undo of the whole edit leaves it.
    await editor.edit((edit) => edit.insert(new vscode.Position(3, 1), '\n// typed'));
    await vscode.commands.executeCommand('loopwire.inline.undo', { uri: uri.toString() });
    assert.equal(editor.document.getText(), BROKEN.replace('}\n', '}\n// typed\n'));

    // The editor's own undo (issue 47): the fix is one step, one undo takes all of it back and the lenses go;
    // redo brings it back with its Keep and Undo.
    await editor.edit((edit) => edit.delete(new vscode.Range(4, 0, 5, 0)));
    assert.equal(editor.document.getText(), BROKEN);
    await vscode.commands.executeCommand(inline.command.command, ...((inline.command.arguments ?? []) as unknown[]));
    assert.equal(editor.document.getText(), fixed);
    // With inlay hints off the actions are CodeLenses (else labels, which no API reads back).
    const editorConfig = vscode.workspace.getConfiguration('editor');
    await editorConfig.update('inlayHints.enabled', 'off', vscode.ConfigurationTarget.Global);
    const lenses = async (): Promise<string[]> =>
      ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [])
        .map((lens) => lens.command?.title ?? '')
        .filter((title) => title === 'Keep' || title === 'Undo');
    assert.deepEqual(await lenses(), ['Keep', 'Undo']);
    await vscode.window.showTextDocument(editor.document, { preview: false });
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), BROKEN, 'one undo: the file as before the fix');
    await eventually(async () => (await lenses()).length === 0, { message: 'the lenses gone', intervalMs: 100 });
    await vscode.commands.executeCommand('redo');
    assert.equal(editor.document.getText(), fixed);
    await eventually(async () => (await lenses()).length === 2, { message: 'the lenses back', intervalMs: 100 });
    await vscode.commands.executeCommand('loopwire.inline.keep', { uri: uri.toString() });
    await editorConfig.update('inlayHints.enabled', undefined, vscode.ConfigurationTarget.Global);
  });
});
