import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../../src/agent';
import { type LoopwireServer, startServer } from '../../../src/server';
import { ReadLedger, toolsFor } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { SilentProxy } from '../../reliability/silentProxy';

// A network that goes silent mid-answer, with no FIN, is noticed by the socket's heartbeat — not by the two
// minutes of the idle limit — and the turn goes on a new socket, with nothing lost and nothing run twice.
// A model that thinks quietly is not taken for a dead network: the server answers pings meanwhile. The
// intervals are shortened here; the idle limit is left long, so only the heartbeat can save the task in time.

const TOKEN = 'beat-token';
const ANSWER = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

describe('reliability: the WebSocket heartbeat', function () {
  this.timeout(30_000);
  let server: LoopwireServer;
  let proxy: SilentProxy;
  let dir: string;

  async function run(
    prompt: string,
    heartbeat: { pingIntervalMs: number; pongTimeoutMs: number },
    during?: () => void,
  ) {
    const events: AgentEvent[] = [];
    const onEvent = (event: AgentEvent) => {
      events.push(event);
      if (event.type === 'text_delta' && during) {
        const once = during;
        during = undefined;
        once();
      }
    };
    const session = new ModelTransport({
      endpoint: proxy.url,
      apiKey: TOKEN,
      transport: 'ws',
      idleTimeoutMs: 120_000,
      backoffBaseMs: 1,
      ...heartbeat,
      emit: onEvent,
    });
    const agent = new Agent({
      transport: session,
      transcript: Transcript.create({ id: prompt, createdAt: '', workspace: dir, model: 'gpt-5.5' }),
      tools: { workspace: await NodeWorkspace.open(dir), reads: new ReadLedger() },
      model: 'gpt-5.5',
      instructions: 'beat',
      toolSpecs: toolsFor('gpt-5.5'),
      approvals: approveAll,
      emit: onEvent,
    });
    await agent.start();
    const done = await agent.run(prompt);
    session.close(false);
    return { done, events };
  }

  before(async () => {
    server = await startServer({
      scenarios: [
        {
          scenarios: [
            { name: 'talk', match: 'talk', steps: [{ output: [{ type: 'message', text: ANSWER }] }] },
            { name: 'think', match: 'think', steps: [{ output: [{ type: 'message', text: 'Thought it over.' }] }] },
          ],
        },
      ],
      tps: 100,
      token: TOKEN,
    });
    proxy = await SilentProxy.start(server.port);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-beat-'));
  });
  after(async () => {
    await proxy.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a network gone silent mid-answer is noticed by a missed pong, and the turn completes on a new socket', async () => {
    let silenced = 0;
    const { done, events } = await run('talk to me', { pingIntervalMs: 100, pongTimeoutMs: 400 }, () => {
      silenced = proxy.silence();
    });
    assert.ok(silenced > 0, 'the answer was streaming when the network went silent');
    assert.equal(done.status, 'completed', done.reason);
    const retries = events.flatMap((event) => (event.type === 'retry' ? [event.reason] : []));
    assert.ok(
      retries.some((reason) => /no answer to a ping/.test(reason)),
      `the heartbeat noticed it: ${JSON.stringify(retries)}`,
    );
    const answers = events.flatMap((event) => (event.type === 'message' ? [event.text] : []));
    assert.deepEqual(answers, [ANSWER], 'the answer once, whole');
  });

  it('a model that stays quiet for longer than the pong timeout is not taken for a dead network', async () => {
    // 10 ms of prefill a token: the first event comes well over a second after the request.
    const quiet = await startServer({
      scenarios: [
        {
          scenarios: [
            { name: 'think', match: 'think', steps: [{ output: [{ type: 'message', text: 'Thought it over.' }] }] },
          ],
        },
      ],
      token: TOKEN,
      prefillUsPerToken: 10_000,
    });
    const quietProxy = await SilentProxy.start(quiet.port);
    const saved = proxy;
    proxy = quietProxy;
    try {
      const { done, events } = await run('think hard', { pingIntervalMs: 100, pongTimeoutMs: 300 });
      assert.equal(done.status, 'completed', done.reason);
      assert.deepEqual(
        events.filter((event) => event.type === 'retry'),
        [],
        'no retry: the server answered every ping while the model was quiet',
      );
    } finally {
      proxy = saved;
      await quietProxy.close();
      await quiet.close();
    }
  });
});
