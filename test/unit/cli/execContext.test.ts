import * as assert from 'node:assert/strict';
import type { AgentEvent, TurnMetrics } from '../../../src/agent';
import { ExitCode } from '../../../src/cli/cliIo';
import { parseCompactAt, parseContextFlags } from '../../../src/cli/exec/contextFlags';
import { execCommand } from '../../../src/cli/exec/execMain';
import { ExecRenderer, compactionLine, tokenMeter } from '../../../src/cli/exec/execRenderer';

// `loopwire exec`'s context flags (--context-window, --compact-at, --no-compact) as the agent gets them, the
// usage errors for bad values, and what the renderer prints for a compaction and in the summary's meter.
// The flags at work on a real server: execLongSession.test.ts.

describe('cli: exec context flags', () => {
  it('parses --compact-at as a share or a percentage, 0 as never', () => {
    assert.equal(parseCompactAt('0.8'), 0.8);
    assert.equal(parseCompactAt('.5'), 0.5);
    assert.equal(parseCompactAt('80'), 0.8);
    assert.equal(parseCompactAt('80%'), 0.8);
    assert.equal(parseCompactAt('1'), 0.01);
    assert.equal(parseCompactAt('0.5%'), 0.005);
    assert.equal(parseCompactAt('0'), 0);
    for (const bad of ['100', '150', '-0.5', 'abc', '', '0.8x', '1e2', '80 %%'])
      assert.equal(parseCompactAt(bad), undefined, bad);
  });

  it('gives the agent only what the flags say', () => {
    assert.deepEqual(parseContextFlags({}), {});
    assert.deepEqual(parseContextFlags({ 'context-window': '40000' }), { window: 40_000 });
    assert.deepEqual(parseContextFlags({ 'compact-at': '75' }), { compactAt: 0.75 });
    assert.deepEqual(parseContextFlags({ 'no-compact': true, 'context-window': '8000' }), {
      window: 8000,
      compactAt: 0,
    });
  });

  it('refuses bad values with exit 2 and a message naming the flag, before anything starts', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--context-window', '0'],
        /--context-window must be a whole number of tokens above 0 \(e\.g\. 40000\), not '0'/,
      ],
      [['--context-window', '40k'], /--context-window must be a whole number .* not '40k'/],
      [['--context-window=-5'], /--context-window must be a whole number .* not '-5'/],
      [['--context-window', '1.5'], /--context-window must be a whole number .* not '1\.5'/],
      [
        ['--compact-at', '120'],
        /--compact-at must be a share of the window between 0 and 1 \(0\.8\) or a percentage between 1 and 100 \(80\), not '120'/,
      ],
      [['--compact-at', 'soon'], /--compact-at must be a share .* not 'soon'/],
      [['--no-compact', '--compact-at', '0.8'], /--no-compact and --compact-at contradict each other/],
    ];
    for (const [args, message] of cases) {
      let stderr = '';
      let stdout = '';
      const code = await execCommand([...args, '--approve', 'read-only', '--workspace', '/nonexistent', 'x'], {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        readStdin: () => Promise.resolve(''),
      });
      assert.equal(code, ExitCode.usage, args.join(' '));
      assert.match(stderr, message);
      assert.match(stderr, /usage: loopwire exec/);
      assert.equal(stdout, '');
    }
  });
});

const metrics = (turn: number, contextTokens: number, extra: Partial<TurnMetrics> = {}): AgentEvent => ({
  type: 'turn_finished',
  metrics: {
    turn,
    transport: 'ws',
    chained: true,
    attempts: 1,
    timeToFirstEventMs: 1,
    timeToFirstTokenMs: 1,
    modelMs: 1,
    toolMs: 1,
    approvalMs: 0,
    overheadBeforeMs: 0.1,
    overheadAfterMs: 0.1,
    gapMs: null,
    bytesSent: 2048,
    bytesReceived: 4096,
    inputTokens: contextTokens,
    cachedTokens: 0,
    outputTokens: 10,
    itemsSent: 1,
    contextTokens,
    contextWindow: 272_000,
    ...extra,
  },
});

function render(events: AgentEvent[]): string {
  let text = '';
  const renderer = new ExecRenderer({ stdout: (t) => (text += t), stderr: (t) => (text += t), color: false });
  for (const event of events) renderer.handle(event);
  return text;
}

describe('cli: exec renderer, the context', () => {
  it('writes the meter as the panel does', () => {
    assert.equal(tokenMeter(38_200, 272_000), '38k / 272k tokens');
    assert.equal(tokenMeter(2656, 40_000), '2.7k / 40k tokens');
    assert.equal(tokenMeter(412, 1_000_000), '412 / 1M tokens');
    assert.equal(tokenMeter(412, undefined), '412 tokens');
  });

  it('prints a line where the context was compacted, saying when it was on request', () => {
    const auto = { type: 'compacted', turn: 3, how: 'auto', tokensBefore: 2656, tokensAfter: 412 } as const;
    assert.equal(compactionLine(auto), 'context compacted (2,656 → 412 tokens)');
    const text = render([
      { type: 'text_delta', turn: 3, itemId: 'm', delta: 'partial' },
      auto,
      { ...auto, how: 'request', tokensBefore: 41_000, tokensAfter: 3_900 },
    ]);
    assert.equal(
      text,
      'partial\ncontext compacted (2,656 → 412 tokens)\ncontext compacted on request (41,000 → 3,900 tokens)\n',
    );
  });

  it('puts the token meter, and how often the context was compacted, in the summary line', () => {
    const done: AgentEvent = {
      type: 'done',
      status: 'completed',
      reason: 'the model answered',
      turns: 2,
      toolCalls: 1,
      wallMs: 10,
    };
    assert.match(
      render([metrics(1, 1200), metrics(2, 38_200), done]),
      /^done: the model answered · 2 turns · 1 tool call · 38k \/ 272k tokens · 0\.01 s · client overhead 0\.20 ms\/turn · 2\.0 KB sent\/turn · ws\n$/,
    );
    const compacted: AgentEvent = { type: 'compacted', turn: 2, how: 'auto', tokensBefore: 33_000, tokensAfter: 3_100 };
    assert.match(
      render([metrics(1, 33_000), compacted, metrics(2, 3_100, { compacted: true }), done]),
      / · 1 tool call · 3\.1k \/ 272k tokens, compacted 1× · /,
    );
    // No turn, no meter (a task refused before its first answer).
    assert.match(render([done]), /^done: the model answered · 2 turns · 1 tool call · 0\.01 s · /);
  });
});
