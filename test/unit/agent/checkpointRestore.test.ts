import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  CheckpointJournal,
  journalFile,
  journaledWorkspace,
  loadJournal,
  restoreCheckpoint,
  saveJournal,
} from '../../../src/agent';
import { ReadLedger, type ToolContext, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// Checkpoints on a real folder with the Node adapter: the agent's own edit tools write through the
// journaled port, the user changes files behind it (on disk, with git or without), and Restore puts back
// what the agent changed and nothing of the user's. Each case of issue 30 is one test; the disk is read back.

let dir = '';
let journal: CheckpointJournal;
let tools: ToolContext;

const file = (name: string) => path.join(dir, name);
const read = (name: string) => (fs.existsSync(file(name)) ? fs.readFileSync(file(name), 'utf8') : undefined);
const write = (name: string, text: string) => {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), text);
};
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });

/** A call of the agent's own tool, as the loop makes it. */
async function agentCall(name: string, args: Record<string, unknown>): Promise<void> {
  const result = await runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, tools);
  assert.ok(result.ok, `${name}: ${result.output}`);
}

const writeFile = async (name: string, content: string) => {
  if (read(name) !== undefined) await agentCall('read_file', { path: name });
  await agentCall('write_file', { path: name, content });
};
const patch = (text: string) => agentCall('apply_patch', { input: text });

async function restore(id: string) {
  return restoreCheckpoint(journal, id, await NodeWorkspace.open(dir));
}

describe('checkpoints: Restore puts back what the agent wrote, and nothing of the user’s is lost', () => {
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-checkpoint-'));
    journal = new CheckpointJournal('chat-1');
    tools = { workspace: journaledWorkspace(await NodeWorkspace.open(dir), journal), reads: new ReadLedger() };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('no git at all: an edited file, a created one and a deleted one go back exactly (line endings and BOM too)', async () => {
    write('src/cart.js', '\uFEFFexport const total = 1;\r\nexport const tax = 2;\r\n');
    write('notes/old.md', 'keep me\n');
    journal.begin('user:1', 0);
    await patch(
      '*** Begin Patch\n*** Update File: src/cart.js\n@@\n-export const total = 1;\n+export const total = 42;\n*** Add File: src/new.js\n+fresh\n*** Delete File: notes/old.md\n*** End Patch',
    );
    assert.match(read('src/cart.js') ?? '', /42/);
    assert.equal(read('src/new.js'), 'fresh\n');
    assert.equal(read('notes/old.md'), undefined);
    const done = await restore('user:1');
    assert.equal(read('src/cart.js'), '\uFEFFexport const total = 1;\r\nexport const tax = 2;\r\n');
    assert.equal(read('src/new.js'), undefined, 'the file the agent created is gone');
    assert.equal(read('notes/old.md'), 'keep me\n', 'the file the agent deleted is back');
    assert.deepEqual(done.kept, []);
    assert.deepEqual(done.restored.map((f) => `${f.how} ${f.path}`).sort(), [
      'deleted src/new.js',
      'recreated notes/old.md',
      'rewritten src/cart.js',
    ]);
    assert.ok(!fs.existsSync(path.join(dir, '.git')), 'no repository was made');
  });

  it('untracked files in a git repository: put back, and git sees the tree as the user left it', async () => {
    git('init', '-q');
    write('tracked.txt', 'one\n');
    git('add', 'tracked.txt');
    git('commit', '-qm', 'first');
    write('scratch.txt', 'the user’s untracked notes\n');
    write('other-untracked.txt', 'not touched by anyone\n');
    const status = git('status', '--porcelain');
    journal.begin('user:1', 0);
    await writeFile('scratch.txt', 'the agent rewrote this\n');
    await writeFile('tracked.txt', 'two\n');
    await restore('user:1');
    assert.equal(read('scratch.txt'), 'the user’s untracked notes\n');
    assert.equal(read('other-untracked.txt'), 'not touched by anyone\n');
    assert.equal(read('tracked.txt'), 'one\n');
    assert.equal(git('status', '--porcelain'), status, 'the same untracked files, nothing staged, nothing lost');
    assert.equal(git('stash', 'list'), '', 'no stash');
  });

  it('commits made after the checkpoint: the files go back, the commits and refs stay (git is not consulted)', async () => {
    git('init', '-q');
    write('app.js', 'v1\n');
    git('add', '.');
    git('commit', '-qm', 'v1');
    journal.begin('user:1', 0);
    await writeFile('app.js', 'v2 by the agent\n');
    await writeFile('added.js', 'the agent added this\n');
    git('add', '.');
    git('commit', '-qm', 'the user commits the agent’s work');
    const head = git('rev-parse', 'HEAD');
    const log = git('log', '--oneline');
    await restore('user:1');
    assert.equal(read('app.js'), 'v1\n');
    assert.equal(read('added.js'), undefined);
    assert.equal(git('rev-parse', 'HEAD'), head, 'HEAD did not move');
    assert.equal(git('log', '--oneline'), log, 'the commits are all there');
    assert.equal(git('show', 'HEAD:added.js'), 'the agent added this\n', 'the committed version is kept in git');
    assert.deepEqual(
      git('status', '--porcelain').split('\n').filter(Boolean).sort(),
      [' M app.js', ' D added.js'].sort(),
    );
  });

  it('a file the user edited after the agent: left as the user has it, listed with what it would go back to', async () => {
    write('a.txt', 'original\n');
    write('b.txt', 'b original\n');
    journal.begin('user:1', 0);
    await writeFile('a.txt', 'agent\n');
    await writeFile('b.txt', 'b agent\n');
    write('a.txt', 'agent\nand the user’s line\n');
    const done = await restore('user:1');
    assert.equal(read('a.txt'), 'agent\nand the user’s line\n', 'the user’s edit stays');
    assert.equal(read('b.txt'), 'b original\n', 'the file nobody touched since goes back');
    assert.deepEqual(done.kept, [
      { path: 'a.txt', why: 'it was edited after Loopwire last wrote it', target: 'original\n' },
    ]);
    // Listed files stay in the journal: once the user takes their change out, Restore can do it.
    write('a.txt', 'agent\n');
    const again = await restore('user:1');
    assert.equal(read('a.txt'), 'original\n');
    assert.deepEqual(again.kept, []);
  });

  it('a file the agent created and the user then edited: not deleted, listed', async () => {
    journal.begin('user:1', 0);
    await writeFile('made.js', 'by the agent\n');
    write('made.js', 'by the agent\nthen the user\n');
    const done = await restore('user:1');
    assert.equal(read('made.js'), 'by the agent\nthen the user\n');
    assert.deepEqual(done.kept, [
      { path: 'made.js', why: 'Loopwire created it and it was edited since', target: null },
    ]);
  });

  it('a move is undone both ways; a file the user put at the old place after the move is kept', async () => {
    write('src/old.js', 'moved text\n');
    journal.begin('user:1', 0);
    await patch(
      '*** Begin Patch\n*** Update File: src/old.js\n*** Move to: lib/new.js\n@@\n-moved text\n+moved and changed\n*** End Patch',
    );
    assert.equal(read('src/old.js'), undefined);
    assert.equal(read('lib/new.js'), 'moved and changed\n');
    await restore('user:1');
    assert.equal(read('src/old.js'), 'moved text\n');
    assert.equal(read('lib/new.js'), undefined);

    journal.begin('user:2', 1);
    await patch('*** Begin Patch\n*** Update File: src/old.js\n*** Move to: lib/new.js\n*** End Patch');
    write('src/old.js', 'the user’s new file at the old place\n');
    const done = await restore('user:2');
    assert.equal(read('src/old.js'), 'the user’s new file at the old place\n');
    assert.equal(read('lib/new.js'), undefined, 'the destination, as the agent left it, goes');
    assert.deepEqual(
      done.kept.map((f) => f.path),
      ['src/old.js'],
    );
  });

  it('an earlier checkpoint goes back past later ones; a later one undoes only its own writes', async () => {
    write('f.txt', 'zero\n');
    journal.begin('user:1', 0);
    await writeFile('f.txt', 'one\n');
    journal.begin('user:2', 3);
    await writeFile('f.txt', 'two\n');
    await writeFile('g.txt', 'g two\n');
    await restore('user:2');
    assert.equal(read('f.txt'), 'one\n');
    assert.equal(read('g.txt'), undefined);
    await writeFile('f.txt', 'three\n');
    await restore('user:1');
    assert.equal(read('f.txt'), 'zero\n');
  });

  it('shell commands are not journaled: their files stay, and the checkpoint names the calls', async () => {
    journal.begin('user:1', 0);
    await writeFile('tool.txt', 'written by an edit tool\n');
    await agentCall('exec_command', { cmd: 'echo from the shell > shell.txt' });
    journal.unjournaled('exec_command');
    const done = await restore('user:1');
    assert.equal(read('tool.txt'), undefined);
    assert.equal(read('shell.txt'), 'from the shell\n', 'a command’s file is not touched');
    assert.deepEqual(done.unjournaled, ['exec_command']);
  });

  it('survives a reload: the journal on disk restores as the one in memory would', async () => {
    write('kept.txt', 'before\n');
    journal.begin('user:1', 0);
    await writeFile('kept.txt', 'after\n');
    const saved = journalFile(path.join(dir, '..', `${path.basename(dir)}-sessions`), 'chat-1');
    saveJournal(saved, journal);
    journal = loadJournal(saved, 'chat-1');
    await restore('user:1');
    assert.equal(read('kept.txt'), 'before\n');
    assert.throws(() => loadJournal(saved, 'chat-2'), /another chat/);
    fs.writeFileSync(saved, '{"version":1');
    assert.throws(() => loadJournal(saved, 'chat-1'), /not JSON/);
    fs.rmSync(path.dirname(saved), { recursive: true, force: true });
  });

  it('a file changed between the look and the write: nothing is written, and the journal keeps everything', async () => {
    write('x.txt', 'x0\n');
    write('y.txt', 'y0\n');
    journal.begin('user:1', 0);
    await writeFile('x.txt', 'x1\n');
    await writeFile('y.txt', 'y1\n');
    const workspace = await NodeWorkspace.open(dir);
    const racing = {
      ...workspace,
      locate: workspace.locate.bind(workspace),
      readFile: workspace.readFile.bind(workspace),
      tryReadFile: workspace.tryReadFile.bind(workspace),
      applyPlan: async (plan: Parameters<typeof workspace.applyPlan>[0]) => {
        write('y.txt', 'y typed by the user meanwhile\n');
        return workspace.applyPlan(plan);
      },
    } as typeof workspace;
    await assert.rejects(restoreCheckpoint(journal, 'user:1', racing), /changed/);
    assert.equal(read('x.txt'), 'x1\n', 'all or nothing');
    assert.equal(read('y.txt'), 'y typed by the user meanwhile\n');
    assert.equal(journal.targets('user:1').length, 2);
  });
});
