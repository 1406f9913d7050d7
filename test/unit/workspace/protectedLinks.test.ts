import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReadLedger, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { useTempWorkspace } from '../support/tempWorkspace';

// An edit of a protected folder (.vscode, .github/hooks, .claude, …) is asked for in `auto` by its path
// (src/agent/approvals). A repository may ship a link into one under another name (`vs -> .vscode`): an
// edit by that name was written unasked. The Workspace's writes now refuse it, naming the real path; the
// same path written directly, and links elsewhere in the workspace, still work.

describe('Workspace writes: a link into a protected folder', () => {
  const temp = useTempWorkspace(
    { '.vscode/settings.json': '{}\n', '.github/hooks/guard.json': '{}\n', 'src/app.ts': 'x\n' },
    { prefix: 'protected-links' },
  );
  let run: (name: string, args: Record<string, unknown>) => ReturnType<typeof runToolCall>;

  beforeEach(async () => {
    fs.symlinkSync('.vscode', temp.path('vs'), 'dir');
    fs.symlinkSync('.github', temp.path('gh'), 'dir');
    fs.symlinkSync(path.join('.github', 'hooks'), temp.path('hk'), 'dir');
    fs.symlinkSync('src', temp.path('code'), 'dir');
    const workspace = await NodeWorkspace.open(temp.dir, { ripgrep: null });
    const context = { workspace, reads: new ReadLedger() };
    run = (name, args) => runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, context);
  });

  it('write_file and apply_patch through vs/, gh/hooks/ or hk/ write nothing and name the real path', async () => {
    for (const [target, real] of [
      ['vs/tasks.json', '.vscode/tasks.json'],
      ['gh/hooks/new.json', '.github/hooks/new.json'],
      ['hk/new.json', '.github/hooks/new.json'],
    ] as const) {
      const written = await run('write_file', { path: target, content: '{"x":1}\n' });
      assert.equal(written.ok, false, target);
      assert.match(written.output, new RegExp(`protected folder, to ${real.replace(/\./g, '\\.')}`), written.output);
      const patched = await run('apply_patch', {
        input: `*** Begin Patch\n*** Add File: ${target}\n+x\n*** End Patch`,
      });
      assert.equal(patched.ok, false, target);
      assert.ok(!fs.existsSync(temp.path(real)), `${real} was not written`);
    }
  });

  it('the same files by their own paths, and a link to an ordinary folder, are written', async () => {
    assert.equal((await run('write_file', { path: '.vscode/tasks.json', content: '{}\n' })).ok, true);
    assert.equal((await run('write_file', { path: 'code/new.ts', content: 'y\n' })).ok, true);
    assert.equal(fs.readFileSync(temp.path('src/new.ts'), 'utf8'), 'y\n');
  });
});
