import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type JournalFile, journalFile } from '../../../src/agent';
import { ReadLedger, runToolCall } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { ChatCheckpoints } from '../../../src/extension/chat/checkpoints/chatCheckpoints';

// When the chat's checkpoint journal reaches the disk (issue 36: a warm Send's start stays fast). A prompt's
// checkpoint holds nothing when it begins, so its write waits for the next turn of the loop — after the
// prompt's request is on the socket; a pre-image the agent's edit tools record is written at once, and
// carries any checkpoint still waiting; a chat left for another writes what it had waiting first.

describe('chat panel host: when the checkpoint journal is written', () => {
  let dir = '';
  let sessions = '';
  let checkpoints: ChatCheckpoints;
  const onDisk = (id: string): JournalFile | undefined => {
    const file = journalFile(sessions, id);
    return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as JournalFile) : undefined;
  };
  const ids = (id: string) => onDisk(id)?.checkpoints.map((checkpoint) => checkpoint.id);
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-journal-writes-'));
    sessions = path.join(dir, 'sessions');
    fs.mkdirSync(path.join(dir, 'work'));
    checkpoints = new ChatCheckpoints(sessions, (line) => assert.fail(line));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a begun checkpoint is written at the next turn of the loop, not during the prompt’s start', async () => {
    checkpoints.open('chat-1');
    checkpoints.begin('user:1', 0);
    assert.equal(onDisk('chat-1'), undefined, 'nothing written while the prompt starts');
    await nextTurn();
    assert.deepEqual(ids('chat-1'), ['user:1']);
  });

  it('an edit’s pre-image is on disk when the write returns, with the checkpoint that waited', async () => {
    fs.writeFileSync(path.join(dir, 'work', 'notes.txt'), 'before\n');
    checkpoints.open('chat-1');
    checkpoints.begin('user:1', 0);
    const workspace = checkpoints.wrap(await NodeWorkspace.open(path.join(dir, 'work')));
    const tools = { workspace, reads: new ReadLedger() };
    const call = (name: string, args: Record<string, unknown>) =>
      runToolCall({ kind: 'function', name, arguments: JSON.stringify(args) }, tools);
    assert.ok((await call('read_file', { path: 'notes.txt' })).ok);
    assert.ok((await call('write_file', { path: 'notes.txt', content: 'after\n' })).ok);
    const saved = onDisk('chat-1');
    assert.deepEqual(saved?.checkpoints[0]?.files, [{ path: 'notes.txt', before: 'before\n', after: 'after\n' }]);
  });

  it('a chat left for another writes what it had waiting first; a noted command waits like a begin', async () => {
    checkpoints.open('chat-1');
    checkpoints.begin('user:1', 0);
    checkpoints.open('chat-2');
    assert.deepEqual(ids('chat-1'), ['user:1'], 'written as the chat was left');
    checkpoints.begin('user:2', 0);
    checkpoints.unjournaled('exec_command');
    assert.equal(onDisk('chat-2'), undefined);
    await nextTurn();
    assert.deepEqual(onDisk('chat-2')?.checkpoints[0]?.unjournaled, ['exec_command']);
  });
});
