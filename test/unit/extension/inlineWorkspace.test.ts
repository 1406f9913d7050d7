import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FilePlan } from '../../../src/edit';
import { InlineWorkspace, inlineTools } from '../../../src/extension/inline/inlineWorkspace';
import { BUILTIN_TOOLS, ReadLedger, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// The workspace an inline request's tools see, over the Node adapter: the edited file reads as the inline edit
// says and is written through it (not to disk); every other file reads from disk and none can be written;
// no task or command runs. And the tools it is offered: those that read, and the streamed edit tools.

describe('inline workspace: reads anywhere, writes one file through the editor', () => {
  let root: string;
  let writes: FilePlan[];
  let workspace: InlineWorkspace;

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'loopwire-inline-'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.js'), 'on disk\n');
    writeFileSync(path.join(root, 'src', 'b.js'), 'const b = 1;\n');
    writes = [];
    workspace = new InlineWorkspace(await NodeWorkspace.open(root), {
      path: 'src/a.js',
      read: () => Promise.resolve({ path: 'src/a.js', text: 'in the buffer\n', version: 7 }),
      write: (plan) => {
        writes.push(plan);
        return Promise.resolve(8);
      },
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reads the edited file from the buffer and the others from disk', async () => {
    assert.equal((await workspace.readFile('./src/a.js')).text, 'in the buffer\n');
    assert.equal((await workspace.readFile('src/b.js')).text, 'const b = 1;\n');
    assert.deepEqual(workspace.capabilities.commands, false);
  });

  it('an edit of the file goes to the buffer, one of another file is refused', async () => {
    const context = { workspace, reads: new ReadLedger() };
    const call = (file: string, from: string, to: string) =>
      runToolCall(
        {
          kind: 'function',
          name: BUILTIN_TOOLS.names.find((name) => BUILTIN_TOOLS.liveDiff(name) === 'replacements') ?? '',
          arguments: JSON.stringify({ path: file, edits: [{ old_string: from, new_string: to }] }),
        },
        context,
      );
    const ok = await call('src/a.js', 'in the buffer', 'edited');
    assert.equal(ok.ok, true, ok.output);
    assert.equal(writes[0]?.after, 'edited\n');
    assert.equal(readFileSync(path.join(root, 'src', 'a.js'), 'utf8'), 'on disk\n', 'nothing written to disk');
    const refused = await call('src/b.js', 'const b = 1;', 'const b = 2;');
    assert.equal(refused.ok, false);
    assert.match(refused.output, /may change src\/a\.js only/);
    assert.equal(readFileSync(path.join(root, 'src', 'b.js'), 'utf8'), 'const b = 1;\n');
  });

  it('runs no command', async () => {
    await assert.rejects(workspace.runCommand('ls', { timeoutMs: 1000 }), /runs no command/);
  });

  it('offers the tools that read and the streamed edit tools only', () => {
    const names = inlineTools(BUILTIN_TOOLS).names;
    for (const name of BUILTIN_TOOLS.names) {
      const wanted = BUILTIN_TOOLS.effect(name) === 'read' || BUILTIN_TOOLS.liveDiff(name) !== undefined;
      assert.equal(names.includes(name), wanted, name);
    }
  });
});
