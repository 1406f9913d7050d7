import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fixture, loopwire, readFixture, writeFixture } from './support';

// agent.run completes a multi-step task (search → read → edit → run a task) over the WebSocket, on the
// embedded backend, with the scenario given through loopwire.scenarioFiles, and the file ends up right.

const CALC = 'function add(a, b) {\n  return a - b;\n}\nmodule.exports = { add };\n';
const CHECK =
  "const { add } = require('./calc');\nif (add(2, 3) !== 5) { console.error('add is broken'); process.exit(1); }\nconsole.log('add works');\n";

describe('agent.run in the extension host', () => {
  it('runs search → read → edit → task over the WebSocket, and the file ends up right', async () => {
    await writeFixture('agent/calc.js', CALC);
    await writeFixture('agent/check.js', CHECK);
    const tasksFile = path.join(fixture(), '.vscode', 'tasks.json');
    const tasks = JSON.parse(await fs.readFile(tasksFile, 'utf8').catch(() => '{"version":"2.0.0","tasks":[]}')) as {
      tasks: unknown[];
    };
    tasks.tasks.push({ label: 'check-calc', type: 'shell', command: 'node agent/check.js' });
    await fs.writeFile(tasksFile, JSON.stringify(tasks, null, 2));
    const scenario = {
      scenarios: [
        {
          name: 'fix-add',
          match: 'fix add',
          steps: [
            { output: [{ type: 'function_call', name: 'search_text', arguments: { query: 'function add' } }] },
            { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'agent/calc.js' } }] },
            {
              output: [
                {
                  type: 'custom_tool_call',
                  name: 'apply_patch',
                  input:
                    '*** Begin Patch\n*** Update File: agent/calc.js\n@@ function add(a, b) {\n-  return a - b;\n+  return a + b;\n*** End Patch\n',
                },
              ],
            },
            { output: [{ type: 'function_call', name: 'run_task', arguments: { label: 'check-calc' } }] },
            { output: [{ type: 'message', text: 'add adds now, and check-calc passes.' }] },
          ],
        },
      ],
    };
    await writeFixture('agent/scenario.json', JSON.stringify(scenario));
    await vscode.workspace
      .getConfiguration('loopwire')
      .update('scenarioFiles', ['agent/scenario.json'], vscode.ConfigurationTarget.Workspace);
    const api = await loopwire();
    const result = await api.agent.run('Please fix add.', { approve: 'all' });
    assert.deepEqual(result, { ok: true, text: 'add adds now, and check-calc passes.', turns: 5, transport: 'ws' });
    assert.equal(await readFixture('agent/calc.js'), CALC.replace('a - b', 'a + b'));
  });

  it('a stopped task ends with its reason, and the next one gets a new socket that works', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const config = vscode.workspace.getConfiguration('loopwire');
    const api = await loopwire();
    try {
      // The user's own setting: a workspace's endpoint would first ask the user (endpointAccess.ts), and a test
      // host refuses dialogs.
      await config.update('endpoint', `http://127.0.0.1:${port}/v1`, vscode.ConfigurationTarget.Global);
      const started = Date.now();
      const refused = await api.agent.run('Please fix add.', { approve: 'all' });
      assert.equal(refused.ok, false);
      console.log(`      (closed port: the task stopped after ${Date.now() - started} ms)`);
    } finally {
      await config.update('endpoint', undefined, vscode.ConfigurationTarget.Global);
    }
    const again = await api.agent.run('list tasks', { approve: 'all' });
    assert.equal(again.ok, true, again.text);
  });
});
