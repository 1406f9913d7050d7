import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, loopwire, readFixture, writeFixture } from './support';

// The sidebar chat panel in the real workbench: its webview loads under the CSP, runs its script, says
// what it shows, and follows the conversation the host keeps (host → page → host), through a hide and a
// re-show; the commands that drive it work from the palette.

describe('chat panel', function () {
  this.timeout(60_000);

  it('resolves, loads its page and follows a conversation, also after being hidden and shown again', async () => {
    const api = await loopwire();
    await writeFixture('chat/todo.txt', 'one\ntwo\nthree\n');
    const scenario = {
      scenarios: [
        {
          name: 'chat-edit',
          match: 'number the todo list',
          steps: [
            {
              output: [
                {
                  type: 'custom_tool_call',
                  name: 'apply_patch',
                  input:
                    '*** Begin Patch\n*** Update File: chat/todo.txt\n@@\n-one\n-two\n-three\n+1. one\n+2. two\n+3. three\n*** End Patch\n',
                },
              ],
            },
            { output: [{ type: 'message', text: 'Numbered the **three** items.' }] },
          ],
        },
      ],
    };
    await writeFixture('chat/scenario.json', JSON.stringify(scenario));
    const config = vscode.workspace.getConfiguration('loopwire');
    // The user's own setting: a workspace's `all` is not followed (approvalChoice.ts). Reset at the end.
    await config.update('approval', 'all', vscode.ConfigurationTarget.Global);
    await config.update('scenarioFiles', ['chat/scenario.json'], vscode.ConfigurationTarget.Workspace);

    await vscode.commands.executeCommand('loopwire.chat.focus');
    const loaded = await eventually(() => api.chat.view(), { timeoutMs: 30_000, intervalMs: 50 });
    assert.ok(loaded, 'the page loaded, ran its script and reported to the host');

    await vscode.commands.executeCommand('loopwire.newChat');
    await eventually(() => api.chat.view()?.entries === 0 && api.chat.view());
    const outcome = await api.chat.ask('number the todo list');
    assert.equal(outcome.ok, true, outcome.text);
    assert.equal(outcome.text, 'Numbered the **three** items.');
    assert.equal(await readFixture('chat/todo.txt'), '1. one\n2. two\n3. three\n');
    // prompt, the edit's card, the answer: each reached the page, which reported it back.
    const shown = await eventually(() => (api.chat.view()?.entries ?? 0) >= 3 && api.chat.view());
    assert.equal(shown.entries, 3);

    // Hidden (another view container) and shown again: the page reloads and gets the whole state back.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.commands.executeCommand('loopwire.chat.focus');
    const again = await eventually(() => api.chat.view()?.entries === 3 && api.chat.view(), {
      timeoutMs: 30_000,
      intervalMs: 50,
    });
    assert.equal(again.sessionId, shown.sessionId);

    await vscode.commands.executeCommand('loopwire.newChat');
    await eventually(() => api.chat.view()?.entries === 0 && api.chat.view());
    await config.update('scenarioFiles', undefined, vscode.ConfigurationTarget.Workspace);
    await config.update('approval', undefined, vscode.ConfigurationTarget.Global);
  });
});
