import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentEvent, ApprovalPolicy, ApprovalRequest } from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { eventually } from '../support/eventually';
import { type AgentBench, type WireLine, eventsOf, requestsOf, useAgentBench } from './agentHarness';
import {
  HOTELS_SCENARIO,
  AFTER_THE_PLAN,
  PLAN_SCENARIO,
  STEER,
  type Steering,
  dropSockets,
  steerAt,
  steeringAgent,
  story,
  userTexts,
  whenEvent,
  words,
} from './steeringBench';

// The races of issue 38 (item 7) against the real bundled server over real sockets: a steer sent while the
// task waits on an approval, while its socket is replaced and the turn resent, as the response completes,
// and Stop with steers outstanding. Natively on a GPT-6 model, and at the tool boundary on one that does
// not steer (gpt-5.5). Each case checks that every text is in the transcript exactly once (or, after Stop,
// handed back and not in it), that no tool ran twice, and how the task ended.

const MORE = 'and museums';
const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+one\n*** End Patch\n';

/** `plan the trip`: two slow messages; `patch the file`: a patch (a write, asked about), then a message. */
function scenarios(): ScenarioFile {
  return {
    scenarios: [
      PLAN_SCENARIO,
      {
        name: 'patch',
        match: 'patch the file',
        steps: [
          {
            output: [
              { type: 'custom_tool_call', name: 'apply_patch', input: PATCH },
              { type: 'message', text: `Patching: ${words(20, 'line')}` },
            ],
          },
          { output: [{ type: 'message', text: 'Patched a.txt.' }] },
        ],
      },
      HOTELS_SCENARIO,
      { name: 'museums', match: MORE, steps: [{ output: [{ type: 'message', text: 'Museums too: Porto.' }] }] },
    ],
  };
}

/** An approval policy in `ask` mode whose answer the test gives, once the call is asked about. */
interface Gate {
  policy: ApprovalPolicy;
  /** Resolves when a call waits for its answer. */
  asked(): Promise<ApprovalRequest>;
  answer(allow: boolean): void;
}

function approvalGate(): Gate {
  let waiting: { request: ApprovalRequest; resolve: (allow: boolean) => void } | undefined;
  const policy: ApprovalPolicy = {
    mode: () => 'ask',
    approve: (request) => new Promise((resolve) => (waiting = { request, resolve })),
  };
  return {
    policy,
    asked: () => eventually(() => waiting?.request, { message: 'the call waits for its approval' }),
    answer: (allow) => {
      const gate = waiting;
      waiting = undefined;
      gate?.resolve(allow);
    },
  };
}

/** Every text once in the transcript, each call run once, the task ended with `status`. */
function assertOnce(
  run: Steering,
  done: AgentEvent,
  events: readonly AgentEvent[],
  texts: string[],
  status = 'completed',
) {
  assert.equal(done.type === 'done' && done.status, status, JSON.stringify(done));
  const users = userTexts(run.transcript.items);
  for (const text of texts)
    assert.equal(users.filter((user) => user === text).length, 1, `"${text}" is in the transcript exactly once`);
  const started = eventsOf(events, 'tool_started').map((event) => event.callId);
  assert.equal(new Set(started).size, started.length, `no tool ran twice: ${started.join(', ')}`);
}

const steeredHow = (events: readonly AgentEvent[]) => eventsOf(events, 'steered').map((event) => event.how);
const lastMessage = (events: readonly AgentEvent[]) => eventsOf(events, 'message').at(-1)?.text;
const steersOnWire = (wire: readonly WireLine[]) =>
  wire.filter((line) => line.dir === 'in' && line.type === 'response.steer').length;

/** The agent's own requests' bodies (the warm-up, `generate: false`, left out). */
function agentBodies(wire: readonly WireLine[]): { input: { type?: string }[] }[] {
  return requestsOf(wire)
    .map((line) => (line as { body?: { input: { type?: string }[]; generate?: boolean } }).body)
    .filter((body) => body !== undefined && body.generate !== false) as { input: { type?: string }[] }[];
}

const patched = (bench: AgentBench) => fs.readFileSync(path.join(bench.dir, 'a.txt'), 'utf8');

describe('agent: steering races (issue 38)', function () {
  this.timeout(20_000);
  const bench = useAgentBench(scenarios, {}, { tps: 400, logBodies: true });

  describe('a steer while the task waits on an approval', () => {
    for (const model of ['gpt-6', 'gpt-5.5'])
      it(`${model}: no response runs, so the text goes after the call's output, once; the call runs once`, async () => {
        const gate = approvalGate();
        const run = await steeringAgent(bench, model, { approvals: gate.policy });
        const task = run.agent.run('patch the file');
        await gate.asked();
        assert.ok(run.agent.steer(STEER), 'a running task takes the steer');
        gate.answer(true);
        const done = await task;
        assertOnce(run, done, bench.events, [STEER]);
        assert.deepEqual(steeredHow(bench.events), ['boundary']);
        assert.equal(eventsOf(bench.events, 'tool_started').length, 1);
        assert.equal(patched(bench), 'one\n', 'the patch applied once');
        assert.deepEqual(story(run.transcript.items), [
          'user: patch',
          'assistant: Patching:',
          'user: only',
          'assistant: Hotels',
        ]);
        assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
        const wire = await bench.wire();
        assert.equal(steersOnWire(wire), 0, 'nothing to steer natively while the call waits: no response runs');
      });

    it('gpt-6: one steer pending on the call (sent as it streamed), one more while it waits: both pending, in the order sent, each once', async () => {
      const gate = approvalGate();
      const run = await steeringAgent(bench, 'gpt-6', { approvals: gate.policy });
      steerAt(run, 'tool_call_delta', STEER);
      const task = run.agent.run('patch the file');
      await gate.asked();
      // The response ended with the call, its output owed, and holds the first steer (`pending`): the second
      // goes there too, so that the model has them in the order they were sent.
      assert.ok(run.agent.steer(MORE));
      gate.answer(true);
      const done = await task;
      assertOnce(run, done, bench.events, [STEER, MORE]);
      assert.deepEqual(steeredHow(bench.events), ['native', 'native']);
      assert.deepEqual(
        eventsOf(bench.events, 'steered').map((event) => event.text),
        [STEER, MORE],
        'shown in the order sent',
      );
      assert.deepEqual(story(run.transcript.items), ['user: patch', 'user: only', 'user: and', 'assistant: Museums']);
      assert.equal(patched(bench), 'one\n');
      const wire = await bench.wire();
      assert.equal(steersOnWire(wire), 2);
      const bodies = agentBodies(wire);
      assert.equal(bodies.length, 2, 'the prompt, then one continuation');
      assert.deepEqual(
        bodies[1]?.input.map((item) => item.type),
        ['custom_tool_call_output'],
        'the output once; the pending steers not sent again',
      );
    });

    it('gpt-6: a steer pending on the call, then the call declined: the text once, the patch never applied', async () => {
      const gate = approvalGate();
      const run = await steeringAgent(bench, 'gpt-6', { approvals: gate.policy });
      steerAt(run, 'tool_call_delta', STEER);
      const task = run.agent.run('patch the file');
      await gate.asked();
      gate.answer(false);
      const done = await task;
      assertOnce(run, done, bench.events, [STEER]);
      assert.deepEqual(steeredHow(bench.events), ['native']);
      assert.equal(fs.existsSync(path.join(bench.dir, 'a.txt')), false);
      assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    });
  });

  describe('a steer while the socket reconnects', () => {
    /** Cuts the sockets at the first delta, once. */
    const dropAtFirstDelta = (run: Steering) =>
      whenEvent(
        run,
        (event) => event.type === 'text_delta',
        () => void dropSockets(bench),
      );

    for (const model of ['gpt-6', 'gpt-5.5'])
      it(`${model}: sent between the lost socket and the resent turn, it goes at the boundary, once`, async () => {
        const run = await steeringAgent(bench, model);
        dropAtFirstDelta(run);
        steerAt(run, 'retry', STEER);
        const done = await run.agent.run('plan the trip');
        assertOnce(run, done, bench.events, [STEER]);
        assert.deepEqual(steeredHow(bench.events), ['boundary']);
        assert.deepEqual(story(run.transcript.items), AFTER_THE_PLAN);
        const wire = await bench.wire();
        assert.equal(steersOnWire(wire), 0, 'no socket to steer on');
      });

    it('gpt-6: sent on the new socket once the resent turn streams, it is steered natively there, once', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      dropAtFirstDelta(run);
      let retried = false;
      whenEvent(
        run,
        (event) => event.type === 'retry',
        () => (retried = true),
      );
      whenEvent(
        run,
        (event) => retried && event.type === 'text_delta',
        () => assert.ok(run.agent.steer(STEER)),
      );
      const done = await run.agent.run('plan the trip');
      assertOnce(run, done, bench.events, [STEER]);
      assert.deepEqual(steeredHow(bench.events), ['native']);
      assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
      const wire = await bench.wire();
      assert.equal(steersOnWire(wire), 1);
    });

    it('gpt-6: committed by the successor, then the socket lost: resent, the text at the boundary, once', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      steerAt(run, 'text_delta', STEER);
      // The successor streams its answer: the steer was committed; the socket goes now.
      whenEvent(
        run,
        (event) => event.type === 'text_delta' && event.delta.includes('Hotels'),
        () => void dropSockets(bench),
      );
      const done = await run.agent.run('plan the trip');
      assertOnce(run, done, bench.events, [STEER]);
      assert.ok(eventsOf(bench.events, 'retry').length >= 1, 'the turn was resent');
      // The commit went with the lost attempt, which the events take back before the text reaches the boundary.
      const shown = bench.events.flatMap((event) =>
        event.type === 'steered' ? [event.how] : event.type === 'output_discarded' ? ['discarded'] : [],
      );
      assert.deepEqual(shown, ['native', 'discarded', 'boundary']);
      assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    });
    it('gpt-6: a steer pending on the call, the socket lost during the approval wait: the text at the boundary, once', async () => {
      const gate = approvalGate();
      const run = await steeringAgent(bench, 'gpt-6', { approvals: gate.policy });
      steerAt(run, 'tool_call_delta', STEER);
      const task = run.agent.run('patch the file');
      await gate.asked();
      // The server held the steer for the continuation; its socket (and what it held) goes now.
      await dropSockets(bench);
      await new Promise((resolve) => setTimeout(resolve, 100));
      gate.answer(true);
      const done = await task;
      assertOnce(run, done, bench.events, [STEER]);
      assert.deepEqual(steeredHow(bench.events), ['boundary']);
      assert.equal(patched(bench), 'one\n', 'the patch applied once');
      assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
    });
  });

  describe('steers beyond what a response holds', () => {
    it('gpt-6: more steers than a response holds (four): the fifth is refused and goes at the boundary; each once', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      const texts = ['one', 'two', 'three', 'four', STEER];
      whenEvent(
        run,
        (event) => event.type === 'text_delta',
        () => texts.forEach((text) => assert.ok(run.agent.steer(text))),
      );
      const done = await run.agent.run('plan the trip');
      assertOnce(run, done, bench.events, texts);
      assert.deepEqual(steeredHow(bench.events), ['native', 'native', 'native', 'native', 'boundary']);
      const wire = await bench.wire();
      assert.equal(steersOnWire(wire), 5);
      assert.equal(
        wire.filter((line) => line.type === 'response.steer.failed' && line.code === 'too_many_pending_steers').length,
        1,
      );
    });
  });

  describe('a steer as the response completes', () => {
    for (const model of ['gpt-6', 'gpt-5.5'])
      it(`${model}: sent as the answer is shown (the response over), it starts one more turn, once`, async () => {
        const run = await steeringAgent(bench, model);
        whenEvent(
          run,
          (event) => event.type === 'message' && event.text.startsWith('Sights'),
          () => assert.ok(run.agent.steer(STEER)),
        );
        const done = await run.agent.run('plan the trip');
        assertOnce(run, done, bench.events, [STEER]);
        assert.deepEqual(steeredHow(bench.events), ['boundary']);
        assert.equal(lastMessage(bench.events), 'Hotels only: Lisbon.');
      });

    it('gpt-6: a steer on each of the last deltas: each text once, however each raced the end', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      let text = '';
      let sent = 0;
      run.hooks.push((event) => {
        if (event.type !== 'text_delta' || sent >= 2) return;
        text += event.delta;
        if (text.split('sight8').length > 3 && sent === 0) sent += run.agent.steer(STEER) ? 1 : 0;
        else if (text.split('sight9').length > 3 && sent === 1) sent += run.agent.steer(MORE) ? 1 : 0;
      });
      const done = await run.agent.run('plan the trip');
      assert.equal(sent, 2);
      assertOnce(run, done, bench.events, [STEER, MORE]);
      assert.equal(eventsOf(bench.events, 'steered').length, 2);
    });
  });

  describe('Stop with steers outstanding: every word comes back, none is in the transcript', () => {
    it('gpt-6: accepted (not yet committed), then Stop', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      const stop = new AbortController();
      steerAt(run, 'text_delta', STEER);
      let deltas = 0;
      run.hooks.push((event) => {
        if (event.type === 'text_delta' && ++deltas === 3) stop.abort();
      });
      const done = await run.agent.run('plan the trip', stop.signal);
      assertOnce(run, done, bench.events, [], 'cancelled');
      assert.deepEqual(run.agent.takeSteers(), [STEER]);
      assert.deepEqual(userTexts(run.transcript.items), ['plan the trip']);
    });

    it('gpt-6: committed by the successor, then Stop as it streams', async () => {
      const run = await steeringAgent(bench, 'gpt-6');
      const stop = new AbortController();
      steerAt(run, 'text_delta', STEER);
      whenEvent(
        run,
        (event) => event.type === 'text_delta' && event.delta.includes('Hotels'),
        () => stop.abort(),
      );
      const done = await run.agent.run('plan the trip', stop.signal);
      assertOnce(run, done, bench.events, [], 'cancelled');
      assert.deepEqual(run.agent.takeSteers(), [STEER], 'the turn was stopped before it was kept: the text comes back');
      assert.deepEqual(userTexts(run.transcript.items), ['plan the trip']);
    });

    for (const model of ['gpt-6', 'gpt-5.5'])
      it(`${model}: one steer as the call streams, one more while it waits, then Stop during the approval wait`, async () => {
        const gate = approvalGate();
        const run = await steeringAgent(bench, model, { approvals: gate.policy });
        const stop = new AbortController();
        steerAt(run, 'tool_call_delta', STEER);
        const task = run.agent.run('patch the file', stop.signal);
        await gate.asked();
        run.agent.steer(MORE);
        stop.abort();
        gate.answer(false);
        const done = await task;
        assertOnce(run, done, bench.events, [], 'cancelled');
        assert.deepEqual(run.agent.takeSteers().sort(), [MORE, STEER].sort());
        assert.deepEqual(userTexts(run.transcript.items), ['patch the file']);
        assert.equal(fs.existsSync(path.join(bench.dir, 'a.txt')), false);
      });
  });
});
