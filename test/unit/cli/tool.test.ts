import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire tool`, run as a user runs it: the built bin on a real folder.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
const loopwire = (args: string[], stdin = '') => runProcess(process.execPath, [bin, ...args], stdin);

describe('cli: loopwire tool', () => {
  const temp = useTempWorkspace({ 'a.txt': 'alpha\nbeta\n' }, { each: false, prefix: 'cli-tool' });
  let dir: string;
  before(() => (dir = temp.dir));

  it('runs a tool with JSON arguments and prints its output', async () => {
    const result = await loopwire(['tool', 'read_file', '{"path":"a.txt"}', '--cwd', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'alpha\nbeta\n(a.txt: lines 1–2 of 2)\n');
  });

  it('takes a patch on standard input for apply_patch', async () => {
    const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-beta\n+gamma\n*** End Patch\n';
    const result = await loopwire(['tool', 'apply_patch', '-', '--cwd', dir], patch);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^M a\.txt \(\+1 -1\)/);
    assert.equal(await temp.read('a.txt'), 'alpha\ngamma\n');
  });

  it('exits 1 with the refusal on stderr, and 2 on bad usage', async () => {
    const refused = await loopwire(['tool', 'read_file', '{"path":"../x"}', '--cwd', dir]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /leaves the workspace/);
    assert.equal((await loopwire(['tool'])).code, 2);
    assert.equal((await loopwire(['tool', 'read_file', '--cwd', path.join(dir, 'missing')])).code, 2);
  });
});
