import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatHost } from '../../../src/extension/chat/chatPort';
import { ChatController } from '../../../src/extension/chat/chatController';
import { HostMessage } from '../../../src/protocol/chatView';
import type { RunningCommand } from '../../../src/protocol/runningCommands';
import { BackgroundCommands } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { alive } from '../support/processAlive';

// The panel's list of commands running in the background, host side: the page's watchCommands gets the list
// now and at each change, its stopCommand ends that command's process group, on the window's own registry
// (the BackgroundCommands the chat's exec_command calls fill) and a real command on the Node adapter.

const unused = () => {
  throw new Error('not used by this test');
};

describe('chat panel host: the commands running in the background', function () {
  this.timeout(20_000);
  let dir: string;
  let sessions: BackgroundCommands;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'chat-commands-'));
    sessions = new BackgroundCommands();
  });
  afterEach(async () => {
    await sessions.stopAll();
    await fs.rm(dir, { recursive: true, force: true });
  });

  function controller(sent: HostMessage[]): ChatController {
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
      commands: sessions,
    };
    const chat = new ChatController(backend);
    chat.attach((message) => {
      sent.push(HostMessage.parse(JSON.parse(JSON.stringify(message))));
    });
    return chat;
  }

  const lists = (sent: HostMessage[]): RunningCommand[][] =>
    sent.flatMap((message) => (message.type === 'commands' ? [message.commands] : []));

  it('watchCommands: the list now and at each change; stopCommand ends that group', async () => {
    const sent: HostMessage[] = [];
    const chat = controller(sent);
    await chat.receive({ type: 'watchCommands' });
    assert.deepEqual(lists(sent), [[]]);
    const workspace = await NodeWorkspace.open(dir);
    const start = (line: string) => workspace.startCommand(line, { timeoutMs: 30_000 });
    const first = await start('sleep 30 & echo $! > sleep.pid; wait');
    sessions.add({ session: first, command: 'sleep 30 & wait', timeoutS: 30 });
    sessions.add({ session: await start('sleep 30'), command: 'sleep 30', timeoutS: 30 });
    assert.deepEqual(
      lists(sent).map((list) => list.map((command) => command.command)),
      [[], ['sleep 30 & wait'], ['sleep 30 & wait', 'sleep 30']],
    );
    // A page that loads again asks again: the list is sent to it at once.
    await chat.receive({ type: 'watchCommands' });
    assert.equal(lists(sent).at(-1)?.length, 2);

    const pidFile = path.join(dir, 'sleep.pid');
    for (let i = 0; i < 100 && !(await fs.stat(pidFile).catch(() => undefined)); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    assert.equal(await alive(pid), true);
    await chat.receive({ type: 'stopCommand', id: 1 });
    assert.equal(await alive(pid), false, 'the command and what it started are gone');
    for (let i = 0; i < 50 && lists(sent).at(-1)?.length !== 1; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      lists(sent)
        .at(-1)
        ?.map((command) => command.id),
      [2],
    );
  });
});
