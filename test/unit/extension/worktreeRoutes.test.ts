import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatHost, WorktreePort } from '../../../src/extension/chat/chatPort';
import { ChatController } from '../../../src/extension/chat/chatController';
import { keepPrompt, promptWaits, takePrompt } from '../../../src/extension/worktrees/worktreePrompt';
import { HostMessage } from '../../../src/protocol/chatView';
import type { WorktreeAction } from '../../../src/protocol/worktreeCard';

// The worktree card's host side without VS Code (issue 49 item 3): the page's watchWorktrees, a card's action
// and sendInWorktree reach the window's port; a prompt the port did not take (cancelled, or no port) goes back
// to the composer, nothing lost; a card's message the schema refuses never reaches the port. And the prompt
// handed to the worktree's window: kept for that folder alone, read once, not after it has gone stale.

const unused = () => {
  throw new Error('not used by this test');
};

describe('chat panel host: the worktree cards and "in a new worktree"', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => (dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'worktree-routes-')))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function controller(sent: HostMessage[], worktrees?: WorktreePort): ChatController {
    const backend: ChatHost = {
      workspace: unused,
      agent: unused,
      enqueue: unused,
      newTranscript: unused,
      sessionsDir: path.join(dir, 'sessions'),
      approvalMode: () => 'ask',
      askElsewhere: unused,
      openDiff: unused,
      log: () => undefined,
      ...(worktrees ? { worktrees } : {}),
    };
    const chat = new ChatController(backend);
    chat.attach((message) => void sent.push(HostMessage.parse(JSON.parse(JSON.stringify(message)))));
    return chat;
  }

  it('routes watch, actions and sendInWorktree to the port; a prompt not taken goes back to the composer', async () => {
    const acted: WorktreeAction[] = [];
    const asked: string[] = [];
    let take = false;
    const port: WorktreePort = {
      watch: (show) => show({ type: 'worktrees', worktrees: [] }),
      act: (action) => Promise.resolve(void acted.push(action)),
      sendInWorktree: (text) => Promise.resolve((asked.push(text), take)),
    };
    const sent: HostMessage[] = [];
    const chat = controller(sent, port);
    await chat.receive({ type: 'watchWorktrees' });
    assert.deepEqual(
      sent.filter((message) => message.type === 'worktrees'),
      [{ type: 'worktrees', worktrees: [] }],
    );
    await chat.receive({ type: 'worktree', action: 'diff', name: 'fix', path: 'src/a.js' });
    await chat.receive({ type: 'worktree', action: 'format-disk', name: 'fix' });
    await chat.receive({ type: 'worktree', action: 'apply', name: '' });
    assert.deepEqual(acted, [{ type: 'worktree', action: 'diff', name: 'fix', path: 'src/a.js' }]);

    await chat.receive({ type: 'sendInWorktree', text: 'fix the cart' });
    assert.deepEqual(sent.at(-1), { type: 'focus', text: 'fix the cart' }, 'cancelled: the words come back');
    take = true;
    const before = sent.length;
    await chat.receive({ type: 'sendInWorktree', text: 'fix the total' });
    assert.deepEqual(asked, ['fix the cart', 'fix the total']);
    assert.equal(sent.length, before, 'taken: nothing comes back');
    chat.dispose();
  });

  it('without a port (no window), the words come back', async () => {
    const sent: HostMessage[] = [];
    const chat = controller(sent);
    await chat.receive({ type: 'sendInWorktree', text: 'fix it' });
    assert.deepEqual(sent.at(-1), { type: 'focus', text: 'fix it' });
    chat.dispose();
  });

  it('keeps the prompt for that folder alone, read once; a stale one is dropped', () => {
    const env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state') };
    const worktree = path.join(dir, 'wt');
    fs.mkdirSync(worktree);
    keepPrompt(worktree, 'fix the cart', env);
    assert.equal(promptWaits(path.join(dir, 'other'), env), false);
    assert.equal(takePrompt(path.join(dir, 'other'), env), undefined);
    assert.equal(promptWaits(worktree, env), true);
    assert.equal(takePrompt(worktree, env), 'fix the cart');
    assert.equal(takePrompt(worktree, env), undefined, 'read once');
    keepPrompt(worktree, 'old', env);
    const [file] = fs.readdirSync(path.join(dir, 'state', 'loopwire', 'worktree-prompts'));
    const kept = path.join(dir, 'state', 'loopwire', 'worktree-prompts', file ?? '');
    assert.equal(fs.statSync(kept).mode & 0o777, 0o600);
    fs.writeFileSync(kept, JSON.stringify({ folder: worktree, text: 'old', at: Date.now() - 11 * 60_000 }));
    assert.equal(takePrompt(worktree, env), undefined, 'stale');
    assert.equal(promptWaits(worktree, env), false, 'and removed');
  });
});
