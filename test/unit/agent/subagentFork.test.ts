import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { eventsOf, useAgentBench, type WireLine } from './agentHarness';
import { SCENARIOS, subagentParent } from './subagentSupport';

// A subagent spawned with fork_context (issue 49, items 2 and 4), against the bundled server over one socket:
// its first request forks the parent's conversation onto its own lane (previous_response_id of the parent's
// response, only the open calls' outputs and its task), and where the socket no longer holds that response
// the server says previous_response_not_found and the subagent sends the whole copy instead.

interface Body {
  stream_id?: string;
  generate?: boolean;
  previous_response_id?: string | null;
  input?: { type?: string; call_id?: string; output?: unknown; content?: string | { text?: string }[] }[];
}

const call = (name: string, args: Record<string, unknown>) => ({
  type: 'function_call' as const,
  name,
  arguments: args,
});
const waitFor = (n: number) => call('wait', { ids: [`{{output.${n}.agent_id}}`], timeout_ms: 20_000 });

/**
 * A fork made once a helper's responses have followed the parent's on the socket: with one response held per
 * socket, the parent's is gone by then. The helper is sent new work and waited for in the very response that
 * then spawns the fork, so the order is the calls' own (the toolRunner runs them in order).
 */
const FORK_AFTER_HELPER = {
  name: 'fork-after-helper',
  match: '^fork after a helper',
  steps: [
    { output: [call('spawn_agent', { message: 'helper alpha reads a.txt' })] },
    { output: [waitFor(1)] },
    {
      output: [
        call('send_input', { id: '{{output.1.agent_id}}', message: 'helper beta reads a.txt' }),
        // Calls that only read run together: a command between keeps the wait after the input, the spawn after it.
        call('exec_command', { cmd: 'true' }),
        waitFor(1),
        call('exec_command', { cmd: 'true' }),
        call('spawn_agent', { message: 'helper forked answers', fork_context: true }),
      ],
    },
    { output: [waitFor(7)] },
    { output: [{ type: 'message' as const, text: 'the fork answered' }] },
  ],
};

const textsOf = (body: Body | undefined) =>
  (body?.input ?? []).flatMap((item) =>
    typeof item.content === 'string' ? [item.content] : (item.content ?? []).map((part) => part.text ?? ''),
  );

/** The generating requests of lane `lane`, with their bytes on the wire. */
function requestsOn(wire: readonly WireLine[], lane: string): { body: Body; bytes: number }[] {
  return wire
    .filter((line) => line.dir === 'in' && line.type === 'response.create')
    .map((line) => ({ body: line.body as Body, bytes: line.bytes ?? 0 }))
    .filter(({ body }) => body.stream_id === lane && body.generate !== false);
}

function forkedRun(prompt: string, serverOptions: Parameters<typeof useAgentBench>[2] = {}) {
  const scenarios = { scenarios: [...SCENARIOS.scenarios, FORK_AFTER_HELPER] };
  const bench = useAgentBench(scenarios, { 'a.txt': 'alpha text\n' }, { logBodies: true, ...serverOptions });
  const events: AgentEvent[] = [];
  let close: (() => void) | undefined;
  beforeEach(() => (events.length = 0));
  afterEach(() => close?.());
  return async () => {
    const built = await subagentParent(bench, events);
    close = built.close;
    const done = await built.run(prompt);
    assert.equal(done.status, 'completed', done.reason);
    const finished = (name: string) => eventsOf(events, 'tool_finished').filter((event) => event.name === name);
    const spawned = finished('spawn_agent').at(-1);
    const id = (JSON.parse(spawned?.output ?? '{}') as { agent_id?: string }).agent_id ?? '';
    assert.deepEqual(JSON.parse(finished('wait').at(-1)?.output ?? '{}'), {
      status: { [id]: { completed: 'the forked helper saw the parent' } },
      timed_out: false,
    });
    const wire = await bench.wire();
    return { bench, spawnCall: spawned?.callId ?? '', fork: requestsOn(wire, `subagent-${id}`) };
  };
}

describe('subagents: a fork_context subagent forks the parent onto its lane', function () {
  this.timeout(30_000);
  const run = forkedRun('fork a helper');

  it("its first request names the parent's response and sends only the spawn's output and its task", async () => {
    const { bench, fork, spawnCall } = await run();
    const first = fork[0];
    assert.ok(first, 'the subagent sent a request');
    assert.ok(
      bench.turns.some((turn) => turn.forkedFrom === ''),
      'the server served a fork from the default lane',
    );
    assert.equal(typeof first.body.previous_response_id, 'string', 'chained');
    assert.ok(!textsOf(first.body).includes('fork a helper'), "no copy of the parent's conversation");
    assert.deepEqual(textsOf(first.body), ['helper forked answers']);
    const answered = first.body.input?.find((item) => item.call_id === spawnCall);
    assert.match(String(answered?.output), /You are the subagent this call started/);
    // Its response was answered from the parent's context, which the socket held: more than was sent.
    const forkTurn = bench.turns.find((turn) => turn.forkedFrom === '');
    assert.equal(forkTurn?.chainedFrom, 'connection');
    assert.ok(forkTurn.inputTokens > forkTurn.tokenizedTokens, "the parent's items were in its context");
    assert.ok(forkTurn.cachedTokens > 0, "the parent's part came from the socket's cache");
  });
});

describe('subagents: a fork whose parent response the socket no longer holds', function () {
  this.timeout(30_000);
  const run = forkedRun('fork after a helper', { limits: { cachedResponsesPerConnection: 1 } });

  it('is refused previous_response_not_found, then sends the whole copy: nothing lost', async () => {
    const { bench, fork } = await run();
    const [chained, whole] = fork;
    assert.equal(typeof chained?.body.previous_response_id, 'string', 'the fork was tried');
    assert.ok(
      bench.turns.some((turn) => turn.outcome === 'not_found'),
      'the server refused the fork: previous_response_not_found',
    );
    assert.equal(whole?.body.previous_response_id ?? null, null, 'then the whole context, unchained');
    const texts = textsOf(whole?.body);
    assert.ok(texts.includes('fork after a helper'), "the parent's prompt is in the copy");
    assert.ok(texts.includes('helper forked answers'), 'its own task follows');
  });
});
