import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { placement, removedHover } from '../../../src/extension/review/editorMarks';
import { KEEP_COMMAND, UNDO_COMMAND } from '../../../src/extension/review/reviewCommands';
import { eventually, loopwire, spiesReachTheExtension, writeFixture } from './support';

// The chat's review in the editor: after an agent edit through the chat, the changed lines of the file carry
// Keep / Undo lenses (and the marks drawn with them), which act like the panel's Accept / Reject, follow the
// editor's own undo, and go when the user rewrites the lines; a refused action is a warning, not an error.

const ORIGINAL = [
  "'use strict';",
  'const rate = 0.2;',
  'function price(total) {',
  '  return total * (1 + rate);',
  '}',
  'function discount(total) {',
  '  return total > 100 ? 10 : 0;',
  '}',
  'function shipping() {',
  '  return 5;',
  '}',
  '// old helper',
  'function unused() {}',
  'module.exports = { price, discount, shipping };',
  '',
].join('\n');

const PATCH = [
  '*** Begin Patch',
  '*** Update File: review/prices.js',
  '@@',
  " 'use strict';",
  '-const rate = 0.2;',
  '+const rate = 0.25;',
  ' function price(total) {',
  '@@',
  ' }',
  '-// old helper',
  '-function unused() {}',
  ' module.exports = { price, discount, shipping };',
  '*** End Patch',
  '',
].join('\n');

interface Lens {
  line: number;
  title: string;
  command: string;
  target: unknown;
}

async function lenses(uri: vscode.Uri): Promise<Lens[]> {
  const found = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return found
    .filter((lens) => lens.command?.command.startsWith('loopwire.review.'))
    .map((lens) => ({
      line: lens.range.start.line,
      title: lens.command?.title ?? '',
      command: lens.command?.command ?? '',
      target: lens.command?.arguments?.[0] as unknown,
    }))
    .sort((a, b) => a.line - b.line || a.title.localeCompare(b.title));
}

const shape = (found: Lens[]) => found.map((lens) => `${lens.line}:${lens.title}`).join(' ');

async function run(lens: Lens | undefined): Promise<void> {
  assert.ok(lens, 'the lens is there');
  await vscode.commands.executeCommand(lens.command, lens.target);
}

describe('review in the editor', function () {
  this.timeout(90_000);

  it('marks the agent’s hunks with Keep / Undo that follow the review and the editor’s undo', async () => {
    const api = await loopwire();
    await vscode.commands.executeCommand('loopwire.chat.focus');
    await api.chat.newChat();
    const uri = await writeFixture('review/prices.js', ORIGINAL);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true });
    const scenario = {
      scenarios: [
        {
          name: 'review-in-editor',
          match: 'reprice the review file',
          steps: [
            { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
            { output: [{ type: 'message', text: 'Raised the rate and dropped the unused helper.' }] },
          ],
        },
      ],
    };
    await writeFixture('review/scenario.json', JSON.stringify(scenario));
    const config = vscode.workspace.getConfiguration('loopwire');
    // The user's own setting: a workspace's `all` is not followed (approvalChoice.ts). Reset at the end.
    await config.update('approval', 'all', vscode.ConfigurationTarget.Global);
    await config.update('scenarioFiles', ['review/scenario.json'], vscode.ConfigurationTarget.Workspace);

    const warnings: string[] = [];
    const window = vscode.window as { showWarningMessage: (message: string) => Thenable<unknown> };
    const showWarning = window.showWarningMessage;
    window.showWarningMessage = (message: string) => {
      warnings.push(message);
      return Promise.resolve(undefined);
    };
    try {
      const outcome = await api.chat.ask('reprice the review file');
      assert.equal(outcome.ok, true, outcome.text);
      assert.match(document.getText(), /const rate = 0\.25;/);
      assert.doesNotMatch(document.getText(), /old helper/);

      // Two hunks: the changed line 1, and the two lines removed above what is now line 11.
      await eventually(async () => shape(await lenses(uri)) === '1:Keep 1:Undo 11:Keep 11:Undo', {
        message: `Keep / Undo on both hunks (now ${shape(await lenses(uri))})`,
      });
      assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString(), 'no focus was taken');

      // Undo on the first hunk takes it back; its lenses go, the other hunk's stay.
      await run((await lenses(uri)).find((lens) => lens.line === 1 && lens.command === UNDO_COMMAND));
      assert.equal(document.lineAt(1).text, 'const rate = 0.2;');
      await eventually(async () => shape(await lenses(uri)) === '11:Keep 11:Undo', { message: 'one hunk left' });

      // The editor's own undo brings the change back, and the review (so the lenses) follows it.
      await vscode.window.showTextDocument(document, { preview: false });
      await vscode.commands.executeCommand('undo');
      assert.equal(document.lineAt(1).text, 'const rate = 0.25;');
      await eventually(async () => shape(await lenses(uri)) === '1:Keep 1:Undo 11:Keep 11:Undo', {
        message: 'the lenses of the hunk the editor brought back',
      });

      // Keep decides the second hunk: the text stays, its lenses go.
      await run((await lenses(uri)).find((lens) => lens.line === 11 && lens.command === KEEP_COMMAND));
      await eventually(async () => shape(await lenses(uri)) === '1:Keep 1:Undo', { message: 'the kept hunk unmarked' });
      assert.doesNotMatch(document.getText(), /old helper/);

      // The user rewrites the first hunk's line: no longer the agent's, so no lenses; Undo is refused.
      const stale = (await lenses(uri)).find((lens) => lens.command === UNDO_COMMAND);
      const editor = await vscode.window.showTextDocument(document, { preview: false });
      await editor.edit((edit) => edit.replace(document.lineAt(1).range, 'const rate = 0.3;'));
      await eventually(async () => (await lenses(uri)).length === 0, { message: 'no lenses on the user’s line' });
      await run(stale);
      assert.equal(document.lineAt(1).text, 'const rate = 0.3;', 'nothing was written');
      // The warning reaches a spy only where the suite shares the extension's API object.
      if (spiesReachTheExtension()) assert.equal(warnings.length, 1, `one warning (${warnings.join(' | ')})`);
    } finally {
      window.showWarningMessage = showWarning;
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await config.update('scenarioFiles', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('approval', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('places added lines, removed lines and the lens within the document', () => {
    const mark = { callId: 'c', path: 'a.js', hunkId: 'h', line: 3, added: 2, removed: ['old'] };
    assert.deepEqual(placement(mark, 10), {
      lens: 3,
      added: { first: 3, last: 4 },
      removed: { line: 3, below: false },
    });
    assert.deepEqual(placement({ ...mark, added: 0 }, 10), { lens: 3, removed: { line: 3, below: false } });
    // Lines removed at the very end of a file with no final newline: marked below its last line.
    assert.deepEqual(placement({ ...mark, line: 4, added: 0 }, 4), { lens: 3, removed: { line: 3, below: true } });
    assert.deepEqual(placement({ ...mark, removed: [] }, 4), { lens: 3, added: { first: 3, last: 3 } });
    const hover = removedHover(['const a = `x`;', '```'], 'javascript').value;
    assert.match(hover, /^Loopwire removed 2 lines here:\n\n````javascript\nconst a = `x`;\n```\n````\n$/);
  });
});
