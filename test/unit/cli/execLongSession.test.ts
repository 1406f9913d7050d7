import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { AgentEvent } from '../../../src/agent';
import { type LoopwireServer, type ScenarioFile, type TurnRecord, startServer } from '../../../src/server';
import { repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// A long task through `loopwire exec` as a user runs it (the built bin): thirty reads of ~10 KB files, about
// 77k tokens in all, against a 40,000-token window. With compaction (the default 80 %) it completes over one
// WebSocket, chaining every turn however often the server compacts; with --no-compact it stops with
// context_length_exceeded; a run stopped after a compaction resumes. Output at 100k tokens/s, no prefill.

const bin = path.join(repoRoot, 'dist/cli/loopwire.js');
// The window's arithmetic is pinned with the request a machine without a sandbox sends: where commands can be
// confined, the Sandbox instructions and exec_command's escalation parameters add a few hundred tokens, and
// the window would fill a turn sooner there than here.
const loopwire = (args: string[]) =>
  runProcess(process.execPath, [bin, ...args], '', { ...process.env, LOOPWIRE_SANDBOX: 'off' });

const READS = 30;
const WINDOW = 40_000;
const PROMPT = 'read all thirty parts';
const ANSWER = 'Read all thirty parts.';

/** About 10 KB and 2,600 tokens: code with doc comments, as a read of a real module is. */
function partText(n: number): string {
  const lines = [`// part ${n}: how the shipping rules are applied`];
  const body = [
    `/** Returns the shipping cost for an order in region ${n}, rounded to whole cents. */`,
    `export function shippingCost(order, region) {`,
    '  const weight = order.items.reduce((total, item) => total + item.weight * item.quantity, 0);',
    '  if (region.freeAbove !== undefined && order.subtotal >= region.freeAbove) return 0;',
    '  return Math.round((region.base + weight * region.perKilogram) * 100) / 100;',
    '}',
  ];
  for (let i = 0; lines.join('\n').length < 10 * 1024; i++) lines.push(body[i % body.length] ?? '');
  return `${lines.join('\n')}\n`;
}

const parts = Array.from({ length: READS }, (_, i) => `src/part${i + 1}.ts`);

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'thirty reads',
      match: `^${PROMPT}$`,
      steps: [
        ...parts.map((file) => ({
          output: [{ type: 'function_call' as const, name: 'read_file', arguments: { path: file } }],
        })),
        { output: [{ type: 'message' as const, text: ANSWER }] },
      ],
    },
  ],
};

const jsonEvents = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => AgentEvent.parse(JSON.parse(line)));

describe('cli: loopwire exec, a long task in a small context window', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      ...Object.fromEntries(parts.map((file, i) => [`workspace/${file}`, partText(i + 1)])),
      'scenario.json': JSON.stringify(scenario),
    },
    { prefix: 'exec-long', each: false },
  );
  const exec = (...args: string[]) =>
    loopwire([
      'exec',
      '--workspace',
      temp.path('workspace'),
      '--sessions-dir',
      temp.path('sessions'),
      '--approve',
      'all',
      ...args,
    ]);

  describe('against loopwire-server --context-window 40000', () => {
    let server: LoopwireServer;
    let records: TurnRecord[];
    let logFile: string;
    beforeEach(async () => {
      records = [];
      logFile = temp.path(`wire-${Date.now()}.jsonl`);
      server = await startServer({
        scenarios: [scenario],
        contextWindow: WINDOW,
        tps: 100_000,
        prefillUsPerToken: 0,
        logFile,
        observe: (record) => records.push(record),
      });
    });
    afterEach(() => server.close());

    it('completes over one WebSocket, compacting on the way and never sending the whole context again', async () => {
      const run = await exec(
        '--endpoint',
        server.url,
        '--transport',
        'ws',
        '--context-window',
        '40000',
        '--json',
        PROMPT,
      );
      assert.equal(run.code, 0, run.stderr);
      await server.close();
      const events = jsonEvents(run.stdout);
      // The scenario reached its last step; nothing was refused.
      assert.deepEqual(
        events.flatMap((e) => (e.type === 'message' ? [e.text] : [])),
        [ANSWER],
      );
      assert.deepEqual(
        events.filter((e) => e.type === 'error'),
        [],
      );
      assert.deepEqual(
        records.filter((r) => r.outcome !== 'completed').map((r) => r.outcome),
        [],
        'every request was answered',
      );
      const done = events.at(-1);
      assert.ok(done?.type === 'done' && done.status === 'completed' && done.toolCalls === READS);
      // The context crossed the threshold (80 % of the window) at least twice, and the server compacted it.
      const compactions = events.flatMap((e) => (e.type === 'compacted' ? [e] : []));
      assert.ok(compactions.length >= 2, `compacted ${compactions.length} times`);
      assert.ok(compactions.every((c) => c.how === 'auto' && c.tokensAfter < c.tokensBefore / 4));
      assert.equal(records.filter((r) => r.compaction).length, compactions.length);
      const metrics = events.flatMap((e) => (e.type === 'turn_finished' ? [e.metrics] : []));
      assert.equal(metrics.length, READS + 1);
      assert.ok(Math.max(...records.map((r) => r.inputTokens)) <= WINDOW);
      assert.ok(metrics.every((m) => m.transport === 'ws' && m.contextWindow === WINDOW && m.contextTokens <= WINDOW));
      assert.equal(metrics.filter((m) => m.compacted).length, compactions.length);
      // After the first turn every request chains and carries only what is new (the last tool output).
      assert.deepEqual(
        metrics.filter((m) => m.turn > 1 && (!m.chained || m.itemsSent > 2)).map((m) => m.turn),
        [],
      );
      // Each request carries the tools (about 9 KB), and one after a compaction the instructions again (6 KB).
      assert.ok(
        metrics.every((m) => m.bytesSent < 32 * 1024),
        'no request re-sent the context (~300 KB)',
      );
      // The server's wire log: one socket, every request after the warm-up chained from the one before.
      const wire = (await fs.readFile(logFile, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { transport: string; type: string; previous_response_id?: unknown });
      assert.equal(wire.filter((r) => r.transport === 'ws' && r.type === 'open').length, 1);
      assert.equal(wire.filter((r) => r.transport === 'http').length, 0, 'nothing went over HTTP');
      const creates = wire.filter((r) => r.type === 'response.create');
      assert.equal(creates.length, READS + 2, 'the warm-up and one request a turn');
      assert.deepEqual(
        creates.slice(1).filter((r) => typeof r.previous_response_id !== 'string'),
        [],
        'every request after the warm-up names previous_response_id',
      );
    });

    it('prints each compaction and the token meter, and resumes a session stopped after one', async () => {
      const first = await exec('--endpoint', server.url, '--context-window', '40000', '--max-turns', '18', PROMPT);
      assert.equal(first.code, 1, first.stderr);
      assert.match(first.stdout, /\ncontext compacted \(3\d,\d{3} → \d,\d{3} tokens\)\n▸ read_file src\/part\d+\.ts\n/);
      assert.match(
        first.stdout,
        /\nstopped: the turn limit \(18\) was reached · 18 turns · 18 tool calls · \d+(\.\d)?k \/ 40k tokens, compacted 1× · /,
      );
      const session = /session kept in (\S+);/.exec(first.stderr)?.[1];
      assert.ok(session, first.stderr);
      const resumed = await exec('--endpoint', server.url, '--context-window', '40000', '--resume', session);
      assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
      assert.match(
        resumed.stdout,
        new RegExp(`\\n${ANSWER.replace('.', '\\.')}\\ndone: the model answered · 13 turns · 12 tool calls · `),
      );
      assert.match(resumed.stdout, /\ncontext compacted \(/);
    });
  });

  it('on the embedded backend with --no-compact, stops with context_length_exceeded (exit 1)', async () => {
    const run = await exec(
      '--scenario',
      temp.path('scenario.json'),
      '--context-window',
      '40000',
      '--no-compact',
      PROMPT,
    );
    assert.equal(run.code, 1, run.stderr + run.stdout);
    assert.match(
      run.stderr,
      /(^|\n)error: The conversation no longer fits the model's context window of 40000 tokens, and compaction is off \(loopwire\.compactAt: 0, --no-compact\)\. /,
    );
    assert.match(run.stdout, /\nfailed: The conversation no longer fits the model's context window of 40000 tokens/);
    // The last turn's context, at the window's edge (the standing instructions' size, and the sandbox's part of
    // them where this machine has one, move it by a turn).
    assert.match(run.stdout, / · 1[56] turns · 1[45] tool calls · (3\d|40)k \/ 40k tokens · /);
    assert.doesNotMatch(run.stdout, /context compacted/);
  });
});
