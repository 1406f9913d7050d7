import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import manifest from '../../../package.json';
import { eventually, loopwire, readFixture, writeFixture } from './support';

// The quick fix on a diagnostic: offered only where a problem is, and running it fixes the file through a
// task on the window's runtime (the scenario answers the fix prompt the action builds).

describe('Fix with Loopwire', () => {
  it('every contributed command is registered', async () => {
    await loopwire();
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const { command } of manifest.contributes.commands) assert.ok(registered.has(command), command);
  });

  it('is offered on a diagnostic and absent without one; running it fixes the file', async () => {
    await loopwire();
    const uri = await writeFixture('fix/settings.json', '{\n  "port": 8080,,\n  "host": "localhost"\n}\n');
    await vscode.window.showTextDocument(uri, { preview: false });
    const [problem] = await eventually(
      () => {
        const found = vscode.languages.getDiagnostics(uri);
        return found.length > 0 && found;
      },
      { timeoutMs: 20_000, message: 'the diagnostic' },
    );
    assert.ok(problem);
    const titles = async (range: vscode.Range) =>
      (
        (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)) ??
        []
      ).map((action) => action.title);
    assert.ok((await titles(problem.range)).includes('Fix with Loopwire'), 'offered on the problem');
    assert.ok(
      !(await titles(new vscode.Range(3, 0, 3, 1))).includes('Fix with Loopwire'),
      'absent where there is none',
    );

    const scenario = {
      scenarios: [
        {
          name: 'fix-json',
          match: 'Fix this problem in fix/settings\\.json',
          steps: [
            {
              output: [
                {
                  type: 'function_call',
                  name: 'edit_file',
                  arguments: { path: 'fix/settings.json', edits: [{ old_string: '8080,,', new_string: '8080,' }] },
                },
              ],
            },
            { output: [{ type: 'message', text: 'Removed the extra comma.' }] },
          ],
        },
      ],
    };
    // A changed scenario list takes effect with the next task: the window's backend is replaced.
    await writeFixture('fix/scenario.json', JSON.stringify(scenario));
    const config = vscode.workspace.getConfiguration('loopwire');
    // The user's own setting: a workspace's `all` is not followed (approvalChoice.ts). Reset at the end.
    await config.update('approval', 'all', vscode.ConfigurationTarget.Global);
    await config.update('scenarioFiles', ['fix/scenario.json'], vscode.ConfigurationTarget.Workspace);
    const action = (
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        problem.range,
      )) ?? []
    ).find((candidate) => candidate.title === 'Fix in Chat');
    assert.ok(action?.command);
    assert.equal(action.command.arguments?.[2], problem.message, 'the task is scoped to this diagnostic');
    const args = (action.command.arguments ?? []) as unknown[];
    const outcome = await vscode.commands.executeCommand<{ ok: boolean; text: string } | undefined>(
      action.command.command,
      ...args,
    );
    assert.ok(outcome, 'the command returns the task outcome');
    assert.equal(outcome.ok, true, outcome.text);
    const fixed = '{\n  "port": 8080,\n  "host": "localhost"\n}\n';
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), fixed);
    assert.equal(await readFixture('fix/settings.json'), fixed, 'the clean file was saved');
    await config.update('approval', undefined, vscode.ConfigurationTarget.Global);
  });
});
