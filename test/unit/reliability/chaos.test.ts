import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../../src/agent';
import { type LoopwireServer, startServer } from '../../../src/server';
import { ReadLedger, toolsFor } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { type ChaosOutcome, chaosRun, summarize } from '../../reliability/chaosRun';
import { type Corruption, FaultProxy, type ProxyFault } from '../../reliability/faultProxy';

// The short chaos run of CI: 20 seeded runs of a task of non-idempotent edits against the real server, through
// the fault proxy, with faults before most requests. The long run is `npm run chaos` (1,000 seeds). A failing
// seed replays with `npm run chaos -- --from SEED --runs 1 --keep`.

describe('reliability: seeded chaos (20 runs)', function () {
  this.timeout(180_000);
  it('every task completes, every file holds each edit exactly once, no tool runs twice', async () => {
    const outcomes: ChaosOutcome[] = [];
    for (let seed = 1; seed <= 20; seed++) outcomes.push(await chaosRun(seed));
    const report = summarize(outcomes);
    console.log(report.replace(/^/gm, '      '));
    const injected = outcomes.reduce((n, o) => n + Object.values(o.faults).reduce((a, b) => a + (b ?? 0), 0), 0);
    assert.ok(injected >= 40, `only ${injected} faults were injected`);
    assert.deepEqual(
      outcomes.flatMap((o) => o.losses.map((loss) => `seed ${o.seed}: ${loss}`)),
      [],
      report,
    );
    assert.equal(outcomes.filter((o) => o.completed).length, 20);
  });
});

// The proxy's faults one at a time, aimed at every frame of the response that carries an apply_patch: each
// must reach the agent as a clear error followed by a retry, and the patch that runs is the one the model
// sent, byte for byte (a corruption that reached a tool's input as data would show in the file).
describe('reliability: the fault proxy, frame by frame', function () {
  this.timeout(120_000);
  const TOKEN = 'proxy-token';
  const PATCH = '*** Begin Patch\n*** Update File: a.txt\n@@\n+entry 0\n*** End Patch\n';
  let server: LoopwireServer;
  let proxy: FaultProxy;
  let base: string;
  before(async () => {
    server = await startServer({
      scenarios: [
        {
          scenarios: [
            {
              name: 'one edit',
              match: 'one edit',
              steps: [
                { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
                { output: [{ type: 'message', text: 'Done.' }] },
              ],
            },
          ],
        },
      ],
      tps: 50_000,
      prefillUsPerToken: 0,
      token: TOKEN,
    });
    proxy = await FaultProxy.start(server.port);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-proxy-'));
  });
  after(async () => {
    await proxy.close();
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  /**
   * One task with `fault` armed for its first model request (after the socket's warm-up), or for the warm-up
   * itself (the upgrade request and its answer) with `onWarmUp`.
   */
  async function task(transport: 'ws' | 'http', fault: ProxyFault, label: string, onWarmUp = false) {
    const dir = fs.mkdtempSync(path.join(base, 'ws-'));
    fs.writeFileSync(path.join(dir, 'a.txt'), 'start\n');
    const events: AgentEvent[] = [];
    const emit = (event: AgentEvent) => events.push(event);
    const session = new ModelTransport({
      endpoint: proxy.url,
      apiKey: TOKEN,
      transport,
      idleTimeoutMs: 1_000,
      backoffBaseMs: 1,
      emit,
    });
    const agent = new Agent({
      transport: session,
      transcript: Transcript.create({ id: label, createdAt: '', workspace: dir, model: 'gpt-5.5' }),
      tools: { workspace: await NodeWorkspace.open(dir), reads: new ReadLedger() },
      model: 'gpt-5.5',
      instructions: 'proxy',
      toolSpecs: toolsFor('gpt-5.5'),
      approvals: approveAll,
      emit,
    });
    const fired = proxy.fired[label] ?? 0;
    if (onWarmUp) proxy.arm(fault, label);
    await agent.start();
    if (!onWarmUp) proxy.arm(fault, label);
    const done = await agent.run('Make one edit.');
    session.close(false);
    return {
      done,
      fired: (proxy.fired[label] ?? 0) > fired,
      retries: events.flatMap((event) => (event.type === 'retry' ? [event.reason] : [])),
      text: fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'),
      runs: events.filter((event) => event.type === 'tool_started').length,
    };
  }

  const cases: [string, 'ws' | 'http', (frame: number) => ProxyFault][] = [];
  for (const transport of ['ws', 'http'] as const) {
    for (const how of ['tls', 'header', 'payload'] satisfies Corruption[])
      cases.push([`corrupt ${how}`, transport, (frame) => ({ kind: 'corrupt', frame, how, at: 0.5 })]);
    cases.push(['truncate', transport, (frame) => ({ kind: 'truncate', frame, keep: 0.5 })]);
  }
  for (const [name, transport, fault] of cases)
    it(`${transport}: ${name} of any frame is an error and a retry, and the patch runs once as sent`, async () => {
      let fired = 0;
      // The response is at most 8 frames (an HTTP head and 7 SSE chunks, or 7 WebSocket frames).
      for (let frame = 0; frame < 8; frame++) {
        const label = `${transport} ${name} ${frame}`;
        const outcome = await task(transport, fault(frame), label);
        assert.equal(outcome.done.status, 'completed', `${label}: ${outcome.done.reason}`);
        assert.equal(outcome.text, 'start\nentry 0\n', label);
        assert.equal(outcome.runs, 1, label);
        if (!outcome.fired) continue;
        fired++;
        assert.ok(outcome.retries.length > 0, `${label}: no retry`);
        assert.match(outcome.retries[0] ?? '', /connection closed|could not connect|malformed/, label);
      }
      assert.ok(fired >= 6, `only ${fired} of 8 frames were reached`);
    });

  it('a WebSocket text frame corrupted to invalid UTF-8 is named as such', async () => {
    const outcome = await task('ws', { kind: 'corrupt', frame: 3, how: 'payload', at: 0.5 }, 'utf8');
    assert.ok(outcome.fired);
    assert.match(outcome.retries[0] ?? '', /Invalid WebSocket frame: invalid UTF-8 sequence/);
  });

  it('an HTTP error answer cut short is a dropped connection and a retry, not an internal error', async () => {
    await fetch(`${server.url.replace(/\/v1$/, '')}/admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fault: { kind: 'error', status: 429, code: 'rate_limit_exceeded', retry_after_s: 0 } }),
    });
    // Frame 1 of the answer is its JSON body (frame 0 is the head).
    const outcome = await task('http', { kind: 'truncate', frame: 1, keep: 0.5 }, 'error body cut');
    assert.ok(outcome.fired);
    assert.equal(outcome.done.status, 'completed', outcome.done.reason);
    assert.match(outcome.retries[0] ?? '', /connection closed before the response started/);
    assert.equal(outcome.text, 'start\nentry 0\n');
  });

  it("a stalled warm-up's late answer is not taken for the turn's (the socket goes with it)", async () => {
    // Held from the middle of the warm-up's `response.completed` (after the 101 head, `created` and
    // `in_progress`, ~11 KB) for longer than the idle timeout: a socket kept after that would deliver the
    // warm-up's empty answer to the turn sent next, and the task would end without its edit.
    const outcome = await task('ws', { kind: 'stall', offset: 12_000, ms: 1_500 }, 'warm-up stall', true);
    assert.ok(outcome.fired);
    assert.equal(outcome.done.status, 'completed', outcome.done.reason);
    assert.equal(outcome.text, 'start\nentry 0\n');
    assert.equal(outcome.runs, 1);
  });
});
