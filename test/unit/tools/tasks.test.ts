import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { toolBench } from './toolHarness';
import { alive } from '../support/processAlive';

const tasksJson = (tasks: unknown[]) =>
  `// VS Code's tasks.json is JSON with comments and trailing commas\n${JSON.stringify({ version: '2.0.0', tasks }, null, 2).replace(/\n\s*\]/, ',\n]')}`;

describe('list_tasks and run_task (Node adapter)', () => {
  it('lists tasks.json tasks, then npm scripts of every package.json, as VS Code names them', async () => {
    const { run } = await toolBench({
      '.vscode/tasks.json': tasksJson([
        { label: 'build', type: 'shell', command: 'echo', args: ['building', 'two words'] },
        { label: 'proc', type: 'process', command: 'node', args: ['-e', 'console.log(1)'] },
        { label: 'watch', type: 'typescript', tsconfig: 'tsconfig.json' },
      ]),
      'package.json': JSON.stringify({ scripts: { test: 'mocha' } }),
      'packages/app/package.json': JSON.stringify({ scripts: { start: 'node .' } }),
    });
    assert.equal(
      (await run('list_tasks')).output,
      [
        "build — echo building 'two words'",
        'proc — node -e console.log(1)',
        'npm: test — npm run test: mocha',
        'npm: start - packages/app — npm run start (in packages/app): mocha'.replace(': mocha', ': node .'),
        '(4 tasks)',
      ].join('\n'),
    );
  });

  it('runs shell and process tasks with ${workspaceFolder}, env and dependsOn, reporting the exit code', async () => {
    const { run, root } = await toolBench({
      '.vscode/tasks.json': tasksJson([
        {
          label: 'where',
          type: 'shell',
          command: 'echo "root=${workspaceFolder} v=$LW_VALUE"',
          options: { env: { LW_VALUE: 'seven' } },
        },
        { label: 'first', type: 'shell', command: 'echo first-ran' },
        {
          label: 'second',
          type: 'process',
          command: 'node',
          args: ['-e', 'console.log("second-ran"); process.exit(5)'],
          dependsOn: ['first'],
        },
      ]),
    });
    const where = await run('run_task', { label: 'where' });
    assert.equal(where.ok, true);
    assert.match(where.output, /^Task 'where' finished with exit code 0 after \d+\.\d s\.\n--- output ---\n/);
    assert.ok(where.output.includes(`root=${root} v=seven`), where.output);
    const second = await run('run_task', { label: 'second' });
    assert.equal(second.ok, false);
    assert.match(second.output, /exit code 5/);
    assert.match(second.output, /> first\nfirst-ran\n> second\nsecond-ran/);
  });

  it('stops a task at its timeout with its whole process tree, and says so', async () => {
    const { run, root } = await toolBench({
      '.vscode/tasks.json': tasksJson([
        { label: 'hang', type: 'shell', command: 'sleep 30 & echo $! > child.pid; echo started; wait' },
      ]),
    });
    const result = await run('run_task', { label: 'hang', timeout_s: 1 });
    assert.equal(result.ok, false);
    assert.match(
      result.output,
      /^Task 'hang' timed out after 1 s and was stopped \(its whole process tree\)\.\n--- output ---\nstarted$/,
    );
    const pid = Number(await fs.readFile(path.join(root, 'child.pid'), 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await alive(pid), false, 'the background child of the task was stopped too');
  });

  it('keeps the start and the end of a long output within the budget, saying what it cut, without colour codes', async () => {
    const script = 'for (let i = 0; i < 20000; i++) console.log("\\u001b[31mline " + i + "\\u001b[0m")';
    const { run } = await toolBench({
      '.vscode/tasks.json': tasksJson([{ label: 'loud', type: 'process', command: 'node', args: ['-e', script] }]),
    });
    const result = await run('run_task', { label: 'loud' });
    assert.equal(result.ok, true);
    assert.ok(!result.output.includes('\u001b'), 'colour codes removed');
    assert.match(result.output, /\n--- output ---\nline 0\nline 1\n/, 'the first lines');
    assert.ok(result.output.endsWith('line 19999'), 'the last line');
    assert.match(result.output, /\n\[… [\d,]+ lines \([\d,]+ characters\) cut from the middle …\]\n/);
    assert.ok(result.output.length < 41_000, `within 10,000 tokens: ${result.output.length} characters`);
    // The person watching is shown all that was kept.
    assert.ok(result.display && result.display.length > result.output.length);
    assert.match(result.display, /\nline 5000\n/);
  });

  it('keeps a task’s output within the model’s budget (ToolContext.outputTokens), head and tail', async () => {
    const script = 'for (let i = 0; i < 20000; i++) console.log("line " + i)';
    const { run, context } = await toolBench({
      '.vscode/tasks.json': tasksJson([{ label: 'loud', type: 'process', command: 'node', args: ['-e', script] }]),
    });
    const whole = await run('run_task', { label: 'loud' });
    context.outputTokens = 2_000;
    const small = await run('run_task', { label: 'loud' });
    assert.ok(small.output.length <= 8_000 + 200 && small.output.length > 7_000, `${small.output.length}`);
    assert.ok(whole.output.length > 4 * small.output.length, `${whole.output.length} vs ${small.output.length}`);
    assert.match(small.output, /\n--- output ---\nline 0\nline 1\n/);
    assert.ok(small.output.endsWith('line 19999'));
    assert.match(small.output, /\n\[… [\d,]+ lines \([\d,]+ characters\) cut from the middle …\]\n/);
  });

  it('keeps the first and last lines of a 5,000-line command output for the model', async () => {
    const { run } = await toolBench({});
    const result = await run('exec_command', { cmd: 'seq 1 5000 | sed "s/^/row /"' });
    assert.equal(result.ok, true, result.output);
    assert.match(result.output, /\n--- output ---\nrow 1\nrow 2\n/);
    assert.ok(result.output.endsWith('row 5000'));
    const short = await run('exec_command', { cmd: 'seq 1 3000' });
    assert.ok(!short.output.includes('cut from the middle'), '3,000 short lines fit the budget whole');
    assert.equal(short.display, undefined);
    const long = await run('exec_command', { cmd: 'seq 1 5000 | sed "s/^/a much longer row, numbered /"' });
    assert.match(long.output, /\n--- output ---\na much longer row, numbered 1\n/);
    assert.ok(long.output.endsWith('a much longer row, numbered 5000'));
    assert.match(long.output, /cut from the middle/);
  });

  it('names the known tasks when a label is unknown, and reports a malformed tasks.json', async () => {
    const { run, workspace } = await toolBench({
      '.vscode/tasks.json': '{ "tasks": [ { "label": "a", "command": "true" } ] }',
    });
    const missing = await run('run_task', { label: 'b' });
    assert.deepEqual(missing, { ok: false, output: "There is no task 'b'. Tasks: 'a'." });
    await fs.writeFile(path.join(workspace.root, '.vscode/tasks.json'), '{ "tasks": [ ');
    assert.match((await run('list_tasks')).output, /no tasks.*\n\(skipped: \.vscode\/tasks\.json is not valid JSON: /);
  });
});
