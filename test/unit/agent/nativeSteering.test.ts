import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { type WireLine, eventsOf, requestsOf, useAgentBench } from './agentHarness';
import {
  HOTELS_SCENARIO,
  AFTER_THE_PLAN,
  PLAN_SCENARIO,
  STEER,
  type Steering,
  dropSockets,
  steeringAgent,
  story,
  userTexts,
  whenEvent,
  words,
} from './steeringBench';

// Native steering (issue 38, item 2) against the real bundled server over real sockets: a model of the
// GPT-6 family, a scripted model slow enough (`tps`) that a steer lands mid-response. Every case checks that
// the transcript holds the steered text exactly once and that no tool ran twice.

/** `plan the trip`: two slow messages; `only hotels`: the steer's answer; `check the notes`: a call, then a message. */
function scenarios(): ScenarioFile {
  return {
    scenarios: [
      PLAN_SCENARIO,
      HOTELS_SCENARIO,
      {
        name: 'notes',
        match: 'check the notes',
        steps: [
          {
            output: [
              { type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } },
              { type: 'message', text: `Reading: ${words(30, 'page')}` },
            ],
          },
          { output: [{ type: 'message', text: 'The notes say hello.' }] },
        ],
      },
    ],
  };
}

/** What every case holds to: the text once in the transcript, each call run once, the task completed. */
function assertOnce(run: Steering, done: AgentEvent, events: readonly AgentEvent[]): void {
  assert.equal(done.type === 'done' && done.status, 'completed', JSON.stringify(done));
  assert.deepEqual(
    userTexts(run.transcript.items).filter((text) => text === STEER),
    [STEER],
    'the steered text is in the transcript exactly once',
  );
  const started = eventsOf(events, 'tool_started').map((event) => event.callId);
  assert.equal(new Set(started).size, started.length, `no tool ran twice: ${started.join(', ')}`);
  assert.equal(eventsOf(events, 'steered').length, 1, 'one steered event');
}

interface RequestBody {
  input: { type?: string }[];
  previous_response_id?: string;
  generate?: boolean;
  context_management?: unknown;
}

/** The agent's own requests with their bodies, the warm-up (`generate: false`) left out. */
function agentRequests(wire: readonly WireLine[]): { body: RequestBody }[] {
  return requestsOf(wire)
    .map((line) => ({ body: (line as { body?: RequestBody }).body as RequestBody }))
    .filter(({ body }) => body.generate !== false);
}

/** The last answer of the task. */
const lastMessage = (events: readonly AgentEvent[]) => eventsOf(events, 'message').at(-1)?.text;

describe('agent: native steering over the socket (gpt-6)', () => {
  const bench = useAgentBench(scenarios, { 'notes.txt': 'hello\n' }, { tps: 400, logBodies: true });

  it('accepted, then committed by the successor: the turn goes on with the successor, which answers the steer', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    whenEvent(
      run,
      (event) => event.type === 'text_delta',
      () => assert.ok(run.agent.steer(STEER)),
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.deepEqual(eventsOf(bench.events, 'steered')[0]?.how, 'native');
    assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    assert.deepEqual(story(run.transcript.items), [
      'user: plan',
      'assistant: Route:',
      `user: only`,
      'assistant: Hotels',
    ]);
    const wire = await bench.wire();
    assert.equal(wire.filter((line) => line.dir === 'in' && line.type === 'response.steer').length, 1);
    assert.equal(agentRequests(wire).length, 1, 'the successor was the server’s: no request of the agent’s');
  });

  it('the steer’s chain goes on: the next task chains on the successor, sending only its prompt', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    whenEvent(
      run,
      (event) => event.type === 'text_delta',
      () => run.agent.steer(STEER),
    );
    await run.agent.run('plan the trip');
    await run.agent.run('check the notes');
    const wire = await bench.wire();
    const second = agentRequests(wire)[1]?.body;
    assert.equal(typeof second?.previous_response_id, 'string', 'chained on the successor');
    assert.equal(second?.input.length, 1, 'only the new prompt');
    assert.equal(userTexts(run.transcript.items).filter((text) => text === STEER).length, 1);
  });

  it('failed (the response steers not: compaction asked for in its fields) falls back to the tool boundary', async () => {
    const run = await steeringAgent(bench, 'gpt-6', {
      extra: { context_management: [{ type: 'compaction', compact_threshold: 200_000 }] },
    });
    whenEvent(
      run,
      (event) => event.type === 'text_delta',
      () => run.agent.steer(STEER),
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.equal(eventsOf(bench.events, 'steered')[0]?.how, 'boundary');
    assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    assert.deepEqual(story(run.transcript.items), AFTER_THE_PLAN);
  });

  it('pending with a call in flight: the call runs once, its output goes in one request, the text is not sent again', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    whenEvent(
      run,
      (event) => event.type === 'tool_call_delta',
      () => run.agent.steer(STEER),
    );
    const done = await run.agent.run('check the notes');
    assertOnce(run, done, bench.events);
    assert.equal(eventsOf(bench.events, 'steered')[0]?.how, 'native');
    assert.equal(eventsOf(bench.events, 'tool_started').length, 1);
    assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.', 'the continuation answered the steer');
    const wire = await bench.wire();
    const requests = agentRequests(wire);
    assert.equal(requests.length, 2, 'the prompt, then one continuation');
    assert.deepEqual(
      requests[1]?.body.input.map((item) => item.type),
      ['function_call_output'],
      'the output once, the steer not sent again',
    );
  });

  it('a socket lost right after response.steer: the outcome unknown, the text goes at the boundary, once', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    whenEvent(
      run,
      (event) => event.type === 'text_delta',
      () => {
        run.agent.steer(STEER);
        void dropSockets(bench);
      },
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.equal(eventsOf(bench.events, 'steered')[0]?.how, 'boundary');
    assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    assert.ok(eventsOf(bench.events, 'retry').length >= 1, 'the turn was sent again on a new socket');
  });

  it('a steer as the response completes: refused as completed, or taken by a successor; the text once either way', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    // The last delta (the third `sight9` is the last word): the steer lands as the response ends.
    let text = '';
    whenEvent(
      run,
      (event) => event.type === 'text_delta' && (text += event.delta).split('sight9').length > 3,
      () => run.agent.steer(STEER),
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
  });

  it('a steer during the last item: the response completes, and its successor follows all the same', async () => {
    const run = await steeringAgent(bench, 'gpt-6');
    // Early in the last message (its second word), so that the steer lands before it ends, with no boundary left.
    let text = '';
    whenEvent(
      run,
      (event) => event.type === 'text_delta' && (text += event.delta).includes('sight1'),
      () => run.agent.steer(STEER),
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.equal(eventsOf(bench.events, 'steered')[0]?.how, 'native');
    assert.deepEqual(story(run.transcript.items), AFTER_THE_PLAN);
    const wire = await bench.wire();
    assert.equal(agentRequests(wire).length, 1, 'the successor was the server’s');
  });

  it('past the threshold, a model that steers is compacted by the agent’s own request, never by context_management', async () => {
    const run = await steeringAgent(bench, 'gpt-6', { context: { window: 272_000, compactThreshold: 100 } });
    const done = await run.agent.run('check the notes');
    assert.equal(done.status, 'completed', done.reason);
    const compacted = eventsOf(bench.events, 'compacted');
    assert.deepEqual(
      compacted.map((event) => event.how),
      ['request'],
      'compacted once, by request, before the second turn',
    );
    const wire = await bench.wire();
    const bodies = agentRequests(wire).map(({ body }) => body);
    assert.equal(bodies.length, 2);
    assert.ok(
      bodies.every((body) => body.context_management === undefined),
      'no request asks the server to compact',
    );
  });

  it('a model that does not steer natively (gpt-5.5) steers at the boundary and never sends response.steer', async () => {
    const run = await steeringAgent(bench, 'gpt-5.5');
    whenEvent(
      run,
      (event) => event.type === 'text_delta',
      () => run.agent.steer(STEER),
    );
    const done = await run.agent.run('plan the trip');
    assertOnce(run, done, bench.events);
    assert.equal(eventsOf(bench.events, 'steered')[0]?.how, 'boundary');
    const wire = await bench.wire();
    assert.equal(wire.filter((line) => line.type === 'response.steer').length, 0);
  });
});
