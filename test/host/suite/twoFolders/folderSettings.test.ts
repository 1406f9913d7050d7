import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { eventually, loopwire } from '../support';

// A real multi-root window: runTests.ts opens test/host/twoFolders/two.code-workspace, whose folders
// `api` (loopwire.maxTurns 2) and `web` (5, and an endpoint a folder may not set) differ. A task follows the
// settings of the folder of the file in the active editor; the window's own settings (the scenario file,
// from the .code-workspace) apply to both. The scenario takes three responses: two tool calls, then its answer.

const PROMPT = 'Please walk both folders.';

function folder(name: string): vscode.WorkspaceFolder {
  const found = vscode.workspace.workspaceFolders?.find((each) => each.name === name);
  if (!found) throw new Error(`the two-folder window has no folder ${name}`);
  return found;
}

async function openIn(name: string, file: string): Promise<void> {
  const document = await vscode.workspace.openTextDocument(path.join(folder(name).uri.fsPath, file));
  await vscode.window.showTextDocument(document);
}

const BROKEN = '{\n  "port": 8080,,\n  "host": "localhost"\n}\n';

/**
 * Runs Fix with Loopwire on a broken JSON file written in folder `name`; what the inline edit said, and the
 * buffer after. The scenario (api/scenario.json) looks for the file, reads it, then edits it with its note beside
 * the call: three responses (an inline fix ends on its edit, endAfterEdit).
 */
async function fixInline(name: string): Promise<{ summary: string | undefined; text: string }> {
  const file = path.join(folder(name).uri.fsPath, 'inline.json');
  await fs.writeFile(file, BROKEN);
  const uri = vscode.Uri.file(file);
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  // The JSON service reports problems only for a document shown in an editor.
  const [problem] = await eventually(
    () => vscode.languages.getDiagnostics(uri).length > 0 && vscode.languages.getDiagnostics(uri),
    {
      timeoutMs: 20_000,
      message: `a diagnostic in ${name}/inline.json`,
    },
  );
  assert.ok(problem);
  const actions =
    (await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      uri,
      problem.range,
    )) ?? [];
  const fix = actions.find((action) => action.title === 'Fix with Loopwire')?.command;
  assert.ok(fix, actions.map((action) => action.title).join(', '));
  const summary = await vscode.commands.executeCommand<string | undefined>(
    fix.command,
    ...((fix.arguments ?? []) as unknown[]),
  );
  return { summary, text: editor.document.getText() };
}

describe('multi-root: a two-folder .code-workspace', () => {
  it('is the window this suite runs in, each folder with its own settings', () => {
    assert.ok(vscode.workspace.workspaceFile?.fsPath.endsWith('two.code-workspace'));
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((each) => each.name),
      ['api', 'web'],
    );
    const maxTurns = (name: string) => vscode.workspace.getConfiguration('loopwire', folder(name)).get('maxTurns');
    assert.deepEqual([maxTurns('api'), maxTurns('web')], [2, 5]);
  });

  it("runs a task with the settings of the active file's folder", async () => {
    const api = await loopwire();
    await openIn('web', 'src/app.ts');
    const inWeb = await api.agent.run(PROMPT, { approve: 'all' });
    assert.deepEqual(inWeb, { ok: true, text: 'Both folders walked.', turns: 3, transport: 'ws' });

    await openIn('api', 'src/server.ts');
    const inApi = await api.agent.run(PROMPT, { approve: 'all' });
    assert.equal(inApi.ok, false, "api's turn limit (2) stops the same task");
    assert.equal(inApi.turns, 2);
  });

  it('takes the first folder when no editor is open', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await loopwire();
    const done = await api.agent.run(PROMPT, { approve: 'all' });
    assert.equal(done.ok, false);
    assert.equal(done.turns, 2, 'api, the first folder, stops at its limit');
  });

  it("never lets a folder redirect the window's endpoint", async () => {
    // `loopwire.endpoint` is a window setting: VS Code does not read it from a folder of a multi-root
    // workspace (it would send the code elsewhere; a workspace's own needs the user's yes).
    const inspected = vscode.workspace.getConfiguration('loopwire', folder('web')).inspect('endpoint');
    assert.equal(inspected?.workspaceFolderValue, undefined);
    await openIn('web', 'src/app.ts');
    const done = await (await loopwire()).agent.run(PROMPT, { approve: 'all' });
    assert.equal(done.ok, true, 'the task ran on the embedded backend, no question asked');
  });

  it("runs an inline fix with the settings of its file's folder", async () => {
    await loopwire();
    const inWeb = await fixInline('web');
    assert.equal(inWeb.summary, 'Removed the extra comma.');
    assert.equal(inWeb.text, BROKEN.replace(',,', ','));
    await vscode.commands.executeCommand('loopwire.inline.undo', {
      uri: vscode.Uri.file(path.join(folder('web').uri.fsPath, 'inline.json')).toString(),
    });

    const inApi = await fixInline('api');
    assert.match(inApi.summary ?? '', /turn limit \(2\)/, "api's turn limit stops the same fix");
    assert.equal(inApi.text, BROKEN, 'a stopped inline edit takes its lines back');
  });
});
