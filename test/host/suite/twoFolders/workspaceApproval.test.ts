import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loopwire, spiesReachTheExtension } from '../support';

// The two-folder window (two.code-workspace): the `.code-workspace` file's "loopwire.approval": "all" and a
// folder's own .vscode/settings.json saying the same are a repository's, like a single folder's settings: a
// command still waits for the user's yes (src/extension/trust/approvalChoice.ts), and the user is told once.

const SCENARIO = {
  scenarios: [
    {
      name: 'approval-write',
      match: 'approval: write ran',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'echo ran > ran.txt' } }] },
        { output: [{ type: 'message', text: 'Tried to write it.' }] },
      ],
    },
  ],
};

function folder(name: string): vscode.WorkspaceFolder {
  const found = vscode.workspace.workspaceFolders?.find((each) => each.name === name);
  if (!found) throw new Error(`the two-folder window has no folder ${name}`);
  return found;
}

describe("multi-root: a .code-workspace's approval mode loosens nothing", function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration('loopwire');
  const window = vscode.window as unknown as {
    showWarningMessage: (message: string, ...rest: unknown[]) => Thenable<unknown>;
  };
  const { showWarningMessage } = window;
  const shown: { message: string; modal: boolean }[] = [];
  const webSettings = () => path.join(folder('web').uri.fsPath, '.vscode', 'settings.json');
  let webBefore = '';
  let scenarios: unknown;

  before(async function () {
    if (!spiesReachTheExtension()) this.skip();
    window.showWarningMessage = (message, ...rest) => {
      const first = rest[0];
      shown.push({ message, modal: typeof first === 'object' && first !== null && 'modal' in first });
      return Promise.resolve(undefined);
    };
    await fs.writeFile(path.join(folder('api').uri.fsPath, 'approval.json'), JSON.stringify(SCENARIO));
    scenarios = config().inspect('scenarioFiles')?.workspaceValue;
    // Relative scenario files are the first folder's (api).
    await config().update('scenarioFiles', ['approval.json', 'scenario.json'], vscode.ConfigurationTarget.Workspace);
    // The user's own mode: ask (the default would be auto where a sandbox works, which runs unasked inside it).
    await config().update('approval', 'ask', vscode.ConfigurationTarget.Global);
    // The .code-workspace file's, and the web folder's own file's (a folder may not set a window setting).
    await config().update('approval', 'all', vscode.ConfigurationTarget.Workspace);
    webBefore = await fs.readFile(webSettings(), 'utf8');
    await fs.writeFile(webSettings(), JSON.stringify({ ...JSON.parse(webBefore), 'loopwire.approval': 'all' }));
  });

  after(async () => {
    window.showWarningMessage = showWarningMessage;
    if (webBefore !== '') await fs.writeFile(webSettings(), webBefore);
    await config().update('approval', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('approval', undefined, vscode.ConfigurationTarget.Global);
    await config().update('scenarioFiles', scenarios, vscode.ConfigurationTarget.Workspace);
    await fs.rm(path.join(folder('api').uri.fsPath, 'approval.json'), { force: true });
  });

  it('a command in the web folder still asks, and nothing runs before the yes', async () => {
    const document = await vscode.workspace.openTextDocument(
      path.join(folder('web').uri.fsPath, '.vscode', 'settings.json'),
    );
    await vscode.window.showTextDocument(document);
    const done = await (await loopwire()).agent.run('approval: write ran');
    assert.equal(done.ok, true, done.text);
    const asked = shown.filter((entry) => entry.modal && /exec_command/.test(entry.message));
    assert.equal(asked.length, 1, `asked before the command (${JSON.stringify(shown)})`);
    for (const name of ['api', 'web'])
      await assert.rejects(fs.access(path.join(folder(name).uri.fsPath, 'ran.txt')), `nothing ran in ${name}`);
    const told = shown.filter((entry) => /looser than yours/.test(entry.message));
    const seen = vscode.workspace.getConfiguration('loopwire', folder('api')).inspect('approval');
    assert.equal(told.length, 1, `told once (${JSON.stringify(shown)}; ${JSON.stringify(seen)})`);
    assert.equal(told[0]?.modal, false);
  });
});
