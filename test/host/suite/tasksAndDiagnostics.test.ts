import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runToolCall, ReadLedger } from '../../../src/tools';
import { VscodeWorkspace } from '../../../src/workspace/vscode/vscodeWorkspace';
import { eventually, fixture, loopwire, writeFixture } from './support';

// Tasks run as VS Code tasks (visible in the terminal panel) with their real exit code and output; a
// hanging one is stopped by its timeout. Diagnostics come from the language services.

describe('VS Code adapter: tasks and diagnostics', () => {
  it('a failing task reports its exit code and output; a passing one exit code 0', async () => {
    const api = await loopwire();
    const failed = await api.tools.run('run_task', { label: 'fail' });
    assert.equal(failed.ok, false);
    assert.match(failed.output, /exit code 3/);
    assert.match(failed.output, /broken/);
    const passed = await api.tools.run('run_task', { label: 'pass' });
    assert.equal(passed.ok, true, passed.output);
    assert.match(passed.output, /exit code 0/);
    assert.match(passed.output, /\bok\b/);
  });

  it('a hanging task is stopped by its timeout', async () => {
    const api = await loopwire();
    const started = Date.now();
    const result = await api.tools.run('run_task', { label: 'hang', timeout_s: 2 });
    assert.equal(result.ok, false);
    assert.match(result.output, /timed out|stopped|timeout/i);
    assert.ok(Date.now() - started < 15_000);
  });

  it('reports the diagnostics of a broken file, and new errors after an edit', async () => {
    const api = await loopwire();
    // The JSON service (like most) pulls diagnostics for documents shown in an editor: the user has it open.
    const uri = await writeFixture('diag/broken.json', '{ "a": 1,, }\n');
    await vscode.window.showTextDocument(uri, { preview: false });
    await eventually(() => vscode.languages.getDiagnostics(uri).length > 0, {
      timeoutMs: 20_000,
      intervalMs: 50,
      message: 'diagnostics on the file',
    });
    const result = await api.tools.run('get_diagnostics', { path: 'diag/broken.json' });
    assert.equal(result.ok, true, result.output);
    assert.match(result.output, /diag\/broken\.json:1:\d+ error/);

    const good = await writeFixture('diag/good.json', '{ "a": 1 }\n');
    await vscode.window.showTextDocument(good, { preview: false });
    const edit = await api.tools.run('edit_file', {
      path: 'diag/good.json',
      edits: [{ old_string: '"a": 1', new_string: '"a": 1,,' }],
    });
    assert.equal(edit.ok, true, edit.output);
    assert.match(edit.output, /diag\/good\.json:1:\d+ error/, 'the edit’s output names the new error');
  });

  it('untrusted (trust state injected: the test host runs with trust disabled): no writes, no tasks', async () => {
    const workspace = await VscodeWorkspace.open(vscode.Uri.file(fixture()), { trusted: false });
    const context = { workspace, reads: new ReadLedger() };
    const call = (name: string, args: unknown) =>
      runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context);
    assert.equal((await call('read_file', { path: 'notes.txt' })).ok, true);
    const write = await call('write_file', { path: 'untrusted.txt', content: 'x' });
    assert.equal(write.ok, false);
    assert.match(write.output, /not trusted/);
    const task = await call('run_task', { label: 'pass' });
    assert.equal(task.ok, false);
    assert.match(task.output, /not available|not trusted/);
  });
});
