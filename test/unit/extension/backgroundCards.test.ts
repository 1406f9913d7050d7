import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { followBackground } from '../../../src/extension/chat/entries/backgroundCards';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { type ChatEntry, HostMessage, type ToolEntry } from '../../../src/protocol/chatView';
import { BackgroundCommands } from '../../../src/tools';
import { toolBench } from '../tools/toolHarness';

// The card of an exec_command that leaves its command running in the background, host side, on a real
// command (the Node adapter) and the window's registry: the call answers at its yield time, the card says
// running (no time of the call's own: the page counts the command's) and, once the command ends by itself,
// failed with its exit code and the command's whole time; a command that ends within its yield time is a
// plain done card, as before.

type Finished = Extract<AgentEvent, { type: 'tool_finished' }>;

async function chatWithCommand(cmd: string) {
  const bench = await toolBench({});
  const sessions = new BackgroundCommands();
  bench.context.sessions = sessions;
  const sent: ChatEntry[] = [];
  const model = new ChatModel(
    (message) => {
      const checked = HostMessage.parse(JSON.parse(JSON.stringify(message)));
      if (checked.type === 'entry') sent.push(checked.entry);
    },
    () => Promise.resolve(undefined),
  );
  const input = JSON.stringify({ cmd, yield_time_ms: 400 });
  model.handle({ type: 'tool_started', turn: 1, callId: 'call_1', name: 'exec_command', kind: 'function', input });
  const result = await bench.run('exec_command', { cmd, yield_time_ms: 400 });
  const finished: Finished = {
    type: 'tool_finished',
    turn: 1,
    callId: 'call_1',
    name: 'exec_command',
    ok: result.ok,
    output: result.output,
    durationMs: 412,
  };
  model.handle(finished);
  followBackground(finished, model, sessions);
  const card = () => model.tool('call_1') as ToolEntry;
  return { sessions, card, sent };
}

describe('chat panel host: the card of a command left running in the background', function () {
  this.timeout(20_000);

  it('says running while the command goes on, then its exit code and the command’s time', async () => {
    const { sessions, card, sent } = await chatWithCommand('echo begun; sleep 1.5; echo ended; exit 3');
    try {
      assert.equal(card().status, 'running');
      assert.equal(card().session, 1);
      assert.equal(card().durationMs, undefined, 'not the call’s 412 ms: the command still runs');
      assert.match(card().output ?? '', /begun/);
      await sessions.get(1)?.session.ended;
      await new Promise((resolve) => setImmediate(resolve));
      const ended = card();
      assert.equal(ended.status, 'failed');
      assert.equal(ended.session, undefined);
      assert.deepEqual(ended.exit, { code: 3, timedOut: false });
      // The command's own 1.5 s (its clock may round a millisecond under), not the call's 412 ms.
      assert.ok((ended.durationMs ?? 0) >= 1400, `the command's time, ${ended.durationMs} ms`);
      assert.deepEqual(sent.at(-1), JSON.parse(JSON.stringify(ended)), 'and the page was sent it');
    } finally {
      await sessions.stopAll();
    }
  });

  it('a command stopped (the list’s Stop, the toolbar’s) says so: no exit code', async () => {
    const { sessions, card } = await chatWithCommand('sleep 30');
    assert.equal(card().status, 'running');
    await sessions.stop(1);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(card().status, 'failed');
    assert.deepEqual(card().exit, { code: null, timedOut: false });
  });

  it('a command over within its yield time is a done card with the call’s time, as before', async () => {
    const { card } = await chatWithCommand('echo quick');
    assert.equal(card().status, 'done');
    assert.equal(card().durationMs, 412);
    assert.equal(card().session, undefined);
    assert.equal(card().exit, undefined);
  });
});
