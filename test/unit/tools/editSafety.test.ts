import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { planReplacements } from '../../../src/edit';
import { toolBench } from './toolHarness';

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n';

describe('edit tools: the stale-read guard', () => {
  it('refuses an edit whose place the user changed since the read, and keeps what the user typed', async () => {
    const { run, write, read } = await toolBench({ 'a.txt': lines(20) });
    await run('read_file', { path: 'a.txt' });
    const typed = lines(20).replace('line 9\n', 'line 9 (typed by the user)\n');
    await write('a.txt', typed);
    const result = await run('edit_file', {
      path: 'a.txt',
      edits: [{ old_string: 'line 10\n', new_string: 'line ten\n' }],
    });
    assert.equal(result.ok, false);
    assert.match(result.output, /a\.txt changed since it was last read/);
    assert.match(result.output, /Re-read a\.txt/);
    assert.equal(await read('a.txt'), typed);
  });

  it('applies an edit far from what the user changed, keeping both', async () => {
    const { run, write, read } = await toolBench({ 'a.txt': lines(40) });
    await run('read_file', { path: 'a.txt' });
    await write('a.txt', lines(40).replace('line 2\n', 'line two\n'));
    const result = await run('edit_file', {
      path: 'a.txt',
      edits: [{ old_string: 'line 30\n', new_string: 'line thirty\n' }],
    });
    assert.equal(result.ok, true, result.output);
    assert.equal(
      await read('a.txt'),
      lines(40).replace('line 2\n', 'line two\n').replace('line 30\n', 'line thirty\n'),
    );
  });

  it('a file changed between planning and writing is not written (changed_on_disk)', async () => {
    const { workspace, write, read } = await toolBench({ 'a.txt': 'one\n' });
    const file = await workspace.readFile('a.txt');
    await write('a.txt', 'two\n');

    const plan = planReplacements(
      { path: 'a.txt', edits: [{ old_string: 'one', new_string: 'three' }] },
      { 'a.txt': file },
    );
    assert.ok(plan.ok);
    await assert.rejects(workspace.applyPlan(plan.value), { code: 'changed_on_disk' });
    assert.equal(await read('a.txt'), 'two\n');
  });

  it("keeps the agent's own edits fresh: a second edit after the first needs no re-read", async () => {
    const { run, read } = await toolBench({ 'a.txt': lines(5) });
    await run('read_file', { path: 'a.txt' });
    assert.equal(
      (await run('edit_file', { path: 'a.txt', edits: [{ old_string: 'line 1\n', new_string: 'first\n' }] })).ok,
      true,
    );
    assert.equal((await run('write_file', { path: 'a.txt', content: 'rewritten\n' })).ok, true);
    assert.equal(await read('a.txt'), 'rewritten\n');
  });
});

describe('edit tools: escapes are refused and nothing is written', () => {
  it('refuses .., absolute paths, links that lead out and .git, naming the path', async () => {
    const bench = await toolBench({ 'src/a.txt': 'a\n' });
    await fs.symlink(bench.outside, path.join(bench.root, 'out-dir'));
    await fs.writeFile(path.join(bench.outside, 'target.txt'), 'outside\n');
    await fs.symlink(path.join(bench.outside, 'target.txt'), path.join(bench.root, 'out-file.txt'));
    await fs.mkdir(path.join(bench.root, '.git'));
    await fs.symlink(path.join(bench.root, '.git'), path.join(bench.root, 'git-link'));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['write_file', { path: '../x.txt', content: 'x' }, /'\.\.\/x\.txt' leaves the workspace/],
      ['write_file', { path: path.join(bench.outside, 'x.txt'), content: 'x' }, /absolute path outside the workspace/],
      ['write_file', { path: 'out-dir/x.txt', content: 'x' }, /leads out of the workspace through a symbolic link/],
      [
        'edit_file',
        { path: 'out-file.txt', edits: [{ old_string: 'outside', new_string: 'pwned' }] },
        /leads out of the workspace/,
      ],
      ['write_file', { path: '.git/hooks/pre-commit', content: 'x' }, /inside \.git\//],
      ['write_file', { path: 'git-link/config', content: 'x' }, /leads into \.git\//],
      ['write_file', { path: 'src/../../x.txt', content: 'x' }, /leaves the workspace/],
    ];
    for (const [tool, args, expected] of cases) {
      const result = await bench.run(tool, args);
      assert.equal(result.ok, false, `${tool} ${JSON.stringify(args)}`);
      assert.match(result.output, expected);
    }
    assert.deepEqual((await fs.readdir(bench.outside)).sort(), ['target.txt']);
    assert.equal(await fs.readFile(path.join(bench.outside, 'target.txt'), 'utf8'), 'outside\n');
    assert.deepEqual(await fs.readdir(path.join(bench.root, '.git')), []);
  });

  it('accepts an absolute path inside the workspace as that relative path', async () => {
    const bench = await toolBench({ 'src/a.txt': 'a\n' });
    assert.equal(
      (await bench.run('read_file', { path: path.join(bench.root, 'src/a.txt') })).output,
      'a\n(src/a.txt: lines 1–1 of 1)',
    );
  });
});

describe('read_file caps', () => {
  it('cuts at the size cap on a line boundary and says where to continue', async () => {
    const text =
      Array.from({ length: 5000 }, (_, i) => `${String(i + 1).padStart(5, '0')} ${'x'.repeat(93)}`).join('\n') + '\n';
    const { run } = await toolBench({ 'big.txt': text });
    const result = await run('read_file', { path: 'big.txt' });
    const body = result.output.split('\n');
    assert.equal(
      body.at(-1),
      '(big.txt: lines 1–1000 of 5000; cut at 100000 characters — continue with start_line: 1001)',
    );
    assert.equal(body.at(-2)?.slice(0, 5), '01000');
    const next = await run('read_file', { path: 'big.txt', start_line: 4990 });
    assert.match(next.output, /^04990 x+\n/);
    assert.match(next.output, /\(big\.txt: lines 4990–5000 of 5000\)$/);
  });

  it('shows the start of one line longer than the cap, and says so', async () => {
    const { run } = await toolBench({ 'min.js': `${'y'.repeat(250_000)}\nnext\n` });
    const result = await run('read_file', { path: 'min.js' });
    assert.ok(result.output.startsWith('y'.repeat(100_000) + '\n('));
    assert.match(result.output, /\(min\.js: lines 1–1 of 2; line 1 is 250000 characters, cut at 100000\)$/);
  });

  it('says when a range is past the end, and reads empty files honestly', async () => {
    const { run } = await toolBench({ 'a.txt': 'a\nb\n', 'empty.txt': '' });
    assert.equal(
      (await run('read_file', { path: 'a.txt', start_line: 9 })).output,
      '(a.txt has 2 lines; start_line 9 is past its end)',
    );
    assert.equal((await run('read_file', { path: 'empty.txt' })).output, '(empty.txt is empty: 0 lines)');
  });
});

describe('edit tools: what the session knows after its own edits', () => {
  it('a file the agent created or moved (named with ./) can be overwritten without a read', async () => {
    const { run, read } = await toolBench({ 'a.txt': 'a\n' });
    assert.equal((await run('write_file', { path: './new.txt', content: 'one\n' })).ok, true);
    assert.equal((await run('write_file', { path: 'new.txt', content: 'two\n' })).ok, true);
    const moved = await run('apply_patch', {
      input: '*** Begin Patch\n*** Update File: a.txt\n*** Move to: ./b.txt\n@@\n-a\n+b\n*** End Patch',
    });
    assert.equal(moved.ok, true, moved.output);
    assert.equal((await run('write_file', { path: 'b.txt', content: 'c\n' })).ok, true);
    assert.deepEqual([await read('new.txt'), await read('a.txt'), await read('b.txt')], ['two\n', undefined, 'c\n']);
  });
});
