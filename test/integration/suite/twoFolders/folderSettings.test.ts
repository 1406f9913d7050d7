import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loopwire } from '../support';

// A real multi-root window: runTests.ts opens test/integration/twoFolders/two.code-workspace, whose folders
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
});
