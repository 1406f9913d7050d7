import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type AgentEvent, readOnly } from '../../../src/agent';
import { eventsOf, useAgentBench } from './agentHarness';
import { SCENARIOS, agentOf, subagentParent } from './subagentSupport';

// Subagents (issue 49, item 4) against the bundled server over one real socket: a parent spawns helpers on
// their own lanes, waits for their answers, closes one, is stopped with them running, and its task ends only
// once they have; a helper's calls go through the parent's approval mode.

/** The bench's request lines for a lane (`stream_id`), from the bodies the wire log keeps. */
type Wire = Awaited<ReturnType<ReturnType<typeof useAgentBench>['wire']>>;
const lanesOf = (wire: Wire) =>
  wire
    .filter((line) => line.dir === 'in' && line.type === 'response.create')
    .map((line) => (line.body as { stream_id?: string } | undefined)?.stream_id ?? '');

/** Each subagent's first turn, from its turn_started to its turn_finished (performance.now() stamps). */
function turnSpans(events: readonly (AgentEvent & { at: number })[]): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  for (const event of events) {
    const id = agentOf(event);
    if (id === '') continue;
    if (event.type === 'turn_started' && event.turn === 1) spans.set(id, [event.at, Infinity]);
    if (event.type === 'turn_finished' && event.metrics.turn === 1) (spans.get(id) ?? [0, 0])[1] = event.at;
  }
  return spans;
}

describe('subagents: spawn_agent, wait, close_agent over one socket', function () {
  this.timeout(30_000);
  const bench = useAgentBench(
    SCENARIOS,
    { 'a.txt': 'alpha text\n', 'b.txt': 'beta text\n' },
    { tps: 400, logBodies: true },
  );
  const events: (AgentEvent & { at: number })[] = [];
  const record = (event: AgentEvent) => events.push({ ...event, at: performance.now() });
  let close: (() => void) | undefined;
  beforeEach(() => (events.length = 0));
  afterEach(() => close?.());

  const parent = async (approvals = undefined as Parameters<typeof subagentParent>[2]) => {
    const sink: AgentEvent[] = [];
    sink.push = (...added: AgentEvent[]) => {
      added.forEach(record);
      return events.length;
    };
    const built = await subagentParent(bench, sink, approvals);
    close = built.close;
    return built;
  };

  it('two subagents run at once on their own lanes of one socket, and wait returns both answers', async () => {
    const { run } = await parent();
    const done = await run('two helpers');
    assert.equal(done.status, 'completed', done.reason);
    const finished = eventsOf(events, 'tool_finished').filter((event) => agentOf(event) === '');
    const spawned = finished
      .filter((event) => event.name === 'spawn_agent')
      .map((event) => JSON.parse(event.output) as { agent_id: string });
    assert.equal(spawned.length, 2);
    const ids = spawned.map((answer) => answer.agent_id);
    // Every answer came back through the waits: each completed with the helper's last message.
    const waited = finished
      .filter((event) => event.name === 'wait')
      .map((event) => JSON.parse(event.output) as { status: Record<string, unknown>; timed_out: boolean });
    const answers = Object.assign({}, ...waited.map((answer) => answer.status)) as Record<string, unknown>;
    assert.deepEqual(new Set(Object.keys(answers)), new Set(ids));
    const texts = Object.values(answers).map((value) => JSON.stringify(value));
    assert.deepEqual(texts.sort(), ['{"completed":"alpha read a.txt"}', '{"completed":"beta read b.txt"}']);
    // Each helper read its own file, its events naming it and the spawn call that started it.
    const spawnCalls = finished.filter((event) => event.name === 'spawn_agent').map((event) => event.callId);
    for (const id of ids) {
      const own = events.filter((event) => agentOf(event) === id);
      assert.ok(own.some((event) => event.type === 'tool_finished' && event.name === 'read_file' && event.ok));
      assert.ok(own.every((event) => spawnCalls.includes(event.agent?.parentCallId ?? '')));
    }
    // Both lanes were in flight at once: each helper's first turn began before the other's ended.
    const spans = turnSpans(events);
    const [a, b] = ids.map((id) => spans.get(id));
    assert.ok(a && b, 'both helpers had a first turn');
    assert.ok(a[0] < b[1] && b[0] < a[1], `turns ${JSON.stringify([a, b])}`);
    const wire = await bench.wire();
    assert.equal(wire.filter((line) => line.transport === 'ws' && line.type === 'open').length, 1, 'one socket');
    const lanes = new Set(lanesOf(wire));
    for (const id of ids) assert.ok(lanes.has(`subagent-${id}`), `lane of ${id} in ${[...lanes].join(', ')}`);
    // The parent's done is the last event.
    assert.equal(events.at(-1)?.type, 'done');
    assert.equal(agentOf(events.at(-1) as AgentEvent), '');
  });

  it("a subagent's calls go through the parent's approval mode: read-only declines its write", async () => {
    const { run } = await parent(readOnly);
    const done = await run('a helper that writes');
    assert.equal(done.status, 'completed', done.reason);
    const touched = events.find(
      (event) => agentOf(event) !== '' && event.type === 'tool_finished' && event.name === 'exec_command',
    );
    assert.ok(touched?.type === 'tool_finished' && touched.declined === true, JSON.stringify(touched));
    assert.equal(fs.existsSync(path.join(bench.dir, 'made-by-helper')), false);
    const waited = eventsOf(events, 'tool_finished').find((event) => event.name === 'wait');
    assert.match(waited?.output ?? '', /tried to touch made-by-helper/);
  });

  it("the parent's Stop stops its running subagents, and its done comes after theirs", async () => {
    const { run } = await parent();
    const stop = new AbortController();
    const sleeping = () =>
      events.filter((event) => agentOf(event) !== '' && event.type === 'tool_started' && event.name === 'exec_command');
    const running = run('two sleepers', stop.signal);
    const deadline = Date.now() + 10_000;
    while (sleeping().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(sleeping().length, 2, 'both helpers were sleeping');
    const stoppedAt = performance.now();
    stop.abort();
    const done = await running;
    assert.equal(done.status, 'cancelled');
    assert.ok(performance.now() - stoppedAt < 4_000, 'the 8 s sleeps did not run out');
    const helpersDone = events.filter((event) => agentOf(event) !== '' && event.type === 'done');
    assert.equal(helpersDone.length, 2);
    assert.ok(helpersDone.every((event) => event.type === 'done' && event.status === 'cancelled'));
    assert.equal(events.at(-1)?.type, 'done');
    assert.equal(agentOf(events.at(-1) as AgentEvent), '', "the parent's done is the last event");
  });

  it('close_agent stops a running subagent and answers the status it had', async () => {
    const { run } = await parent();
    const started = performance.now();
    const done = await run('close a helper');
    assert.equal(done.status, 'completed', done.reason);
    assert.ok(performance.now() - started < 6_000, 'the 8 s sleep did not run out');
    const closed = eventsOf(events, 'tool_finished').find((event) => event.name === 'close_agent');
    assert.deepEqual(JSON.parse(closed?.output ?? '{}'), { status: 'running' });
    const helperDone = events.find((event) => agentOf(event) !== '' && event.type === 'done');
    assert.ok(helperDone?.type === 'done' && helperDone.status === 'cancelled');
  });

  it('a task that answered without waiting ends only once its subagent has', async () => {
    const { run } = await parent();
    const done = await run('spawn and answer');
    assert.equal(done.status, 'completed', done.reason);
    const helperDone = events.findIndex((event) => agentOf(event) !== '' && event.type === 'done');
    const parentDone = events.findIndex((event) => agentOf(event) === '' && event.type === 'done');
    assert.ok(helperDone >= 0 && helperDone < parentDone, `helper's done at ${helperDone}, parent's at ${parentDone}`);
    const helper = events[helperDone];
    assert.ok(helper?.type === 'done' && helper.status === 'completed');
  });
});
