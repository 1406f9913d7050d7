import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { eventsOf, useAgentBench } from './agentHarness';
import { SCENARIOS, agentOf, subagentParent } from './subagentSupport';

// Subagents given more than a message (issue 49, item 4), against the bundled server over one socket: input
// that interrupts a running subagent, and the cap on how many run at once (a fork of the parent's
// conversation: subagentFork.test.ts).

describe('subagents: send_input and the cap', function () {
  this.timeout(30_000);
  const bench = useAgentBench(SCENARIOS, { 'a.txt': 'alpha text\n' }, { logBodies: true });
  const events: AgentEvent[] = [];
  let close: (() => void) | undefined;
  beforeEach(() => (events.length = 0));
  afterEach(() => close?.());

  const parent = async () => {
    const built = await subagentParent(bench, events);
    close = built.close;
    return built;
  };
  const finished = (name: string) => eventsOf(events, 'tool_finished').filter((event) => event.name === name);

  it('send_input with interrupt stops what the subagent was doing and starts it on the new message', async () => {
    const { run } = await parent();
    const started = performance.now();
    const done = await run('redirect a helper');
    assert.equal(done.status, 'completed', done.reason);
    assert.ok(performance.now() - started < 6_000, 'the 8 s sleep was stopped');
    const sent = finished('send_input')[0];
    assert.ok(sent?.ok && /"submission_id":"[0-9a-f]+"/.test(sent.output), sent?.output);
    const answer = JSON.parse(finished('wait')[0]?.output ?? '{}') as { status: Record<string, unknown> };
    assert.deepEqual(Object.values(answer.status), [{ completed: 'alpha read a.txt' }]);
    const helperDone = events.filter((event) => agentOf(event) !== '' && event.type === 'done');
    assert.deepEqual(
      helperDone.map((event) => event.type === 'done' && event.status),
      ['cancelled', 'completed'],
    );
  });

  it('send_input without interrupt reaches a running subagent at its next step, in the same task', async () => {
    const { run } = await parent();
    const done = await run('steer a helper');
    assert.equal(done.status, 'completed', done.reason);
    const answer = JSON.parse(finished('wait')[0]?.output ?? '{}') as { status: Record<string, unknown> };
    assert.deepEqual(Object.values(answer.status), [{ completed: 'alpha read a.txt' }]);
    const helper = events.filter((event) => agentOf(event) !== '');
    const steered = helper.find((event) => event.type === 'steered');
    assert.ok(steered?.type === 'steered' && steered.text === 'helper alpha reads a.txt', JSON.stringify(steered));
    assert.deepEqual(
      helper.filter((event) => event.type === 'done').map((event) => event.type === 'done' && event.status),
      ['completed'],
      'one task: the sleep ran out, then the message was read',
    );
  });

  it('a fifth spawn while four run is refused, saying so; the task waits for the four', async () => {
    const { run } = await parent();
    const done = await run('five helpers');
    assert.equal(done.status, 'completed', done.reason);
    const spawns = finished('spawn_agent');
    assert.equal(spawns.filter((event) => event.ok).length, 4);
    const refused = spawns.find((event) => !event.ok);
    assert.match(refused?.output ?? '', /At most 4 subagents run at once, and 4 are running/);
    const helpersDone = events.filter((event) => agentOf(event) !== '' && event.type === 'done');
    assert.equal(helpersDone.length, 4);
    assert.equal(agentOf(events.at(-1) as AgentEvent), '');
  });

  it("a front end stops one subagent by its id (bind): it ends, shutdown, and the parent's wait says so", async () => {
    let stop: ((id: string) => Promise<void>) | undefined;
    const built = await subagentParent(bench, events, undefined, { bind: (given) => (stop = given) });
    close = built.close;
    const started = performance.now();
    const running = built.run('two sleepers');
    const sleeping = () =>
      events.filter((event) => agentOf(event) !== '' && event.type === 'tool_started' && event.name === 'exec_command');
    const deadline = Date.now() + 10_000;
    while (sleeping().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const ids = sleeping().map(agentOf);
    assert.equal(ids.length, 2, 'both helpers were sleeping');
    for (const id of ids) await stop?.(id);
    const done = await running;
    assert.equal(done.status, 'completed', done.reason);
    assert.ok(performance.now() - started < 6_000, 'the 8 s sleeps were stopped');
    const waited = JSON.parse(finished('wait')[0]?.output ?? '{}') as { status: Record<string, unknown> };
    assert.ok(
      Object.values(waited.status).every((status) => status === 'shutdown'),
      JSON.stringify(waited),
    );
    const helpersDone = events.filter((event) => agentOf(event) !== '' && event.type === 'done');
    assert.deepEqual(
      helpersDone.map((event) => event.type === 'done' && event.status),
      ['cancelled', 'cancelled'],
    );
  });
});
