import * as assert from 'node:assert/strict';
import type { TurnMetrics } from '../../../src/agent';
import type { TurnRecord } from '../../../src/server';
import type { LongResults, LongTurn } from '../../bench/loop/benchTypes';
import { longTable } from '../../bench/loop/longBench';
import { compactionPhases, longTurns } from '../../bench/loop/longPhases';

// The long mode's arithmetic: a task's client metrics paired with the server's records, and its turns split
// at each compaction, with medians over the repetitions.

const turn = (n: number, input: number, extra: Partial<LongTurn> = {}): LongTurn => ({
  turn: n,
  compacted: false,
  overhead_ms: 0.1,
  bytes_sent: 1000,
  server_ms: 1,
  tokenized_tokens: 100,
  input_tokens: input,
  context_tokens: input,
  ...extra,
});

/** Turns 1–8 of a task compacted at turns 4 and 7 (the context growing 1,000 tokens a turn in between). */
const task = (scale = 1): LongTurn[] => [
  turn(1, 1000),
  turn(2, 2000, { bytes_sent: 1000 * scale }),
  turn(3, 3000, { bytes_sent: 3000 * scale }),
  turn(4, 4000, { compacted: true, context_tokens: 500, server_ms: 9 * scale, tokenized_tokens: 4500 }),
  turn(5, 1500, { server_ms: 2 }),
  turn(6, 2500, { server_ms: 4 }),
  turn(7, 3500, { compacted: true, context_tokens: 600, server_ms: 7 }),
  turn(8, 1600, { overhead_ms: 0.5 }),
];

describe('bench: the long mode, before and after each compaction', () => {
  it('splits a task at each compaction, leaving turn 1 out of the phases', () => {
    const { phases, compactions } = compactionPhases([task()]);
    assert.deepEqual(
      phases.map((p) => [p.after_compactions, p.first_turn, p.last_turn, p.turns]),
      [
        [0, 2, 3, 2],
        [1, 5, 6, 2],
        [2, 8, 8, 1],
      ],
    );
    assert.deepEqual(
      phases.map((p) => [p.input_tokens_first, p.input_tokens_last]),
      [
        [2000, 3000],
        [1500, 2500],
        [1600, 1600],
      ],
    );
    assert.equal(phases[0]?.bytes_sent_per_turn, 2000, 'the median of 1,000 and 3,000');
    assert.equal(phases[1]?.server_ms_per_turn, 3);
    assert.equal(phases[2]?.overhead_p50_ms, 0.5);
    assert.deepEqual(
      compactions.map((c) => [c.turn, c.tokens_before, c.tokens_after, c.server_ms, c.tokenized_tokens]),
      [
        [4, 4000, 500, 9, 4500],
        [7, 3500, 600, 7, 100],
      ],
    );
  });

  it('takes medians over every repetition', () => {
    const { phases, compactions } = compactionPhases([task(1), task(2), task(3)]);
    assert.equal(phases[0]?.turns, 6);
    assert.equal(phases[0]?.bytes_sent_per_turn, 3000, 'the median of 1, 2, 3, 3, 6 and 9 thousand');
    assert.equal(compactions[0]?.server_ms, 18, 'the median of 9, 18 and 27');
  });

  it('has one phase and no compaction for a task that never compacted, and nothing for none', () => {
    const { phases, compactions } = compactionPhases([[turn(1, 1000), turn(2, 2000), turn(3, 3000)]]);
    assert.deepEqual(
      phases.map((p) => [p.after_compactions, p.first_turn, p.last_turn]),
      [[0, 2, 3]],
    );
    assert.deepEqual(compactions, []);
    assert.deepEqual(compactionPhases([]), { phases: [], compactions: [] });
  });

  it("pairs each turn's metrics with the server's record of it, leaving warm-ups out", () => {
    const metrics = (n: number): TurnMetrics => ({
      turn: n,
      transport: 'ws',
      chained: n > 1,
      attempts: 1,
      timeToFirstEventMs: 1,
      timeToFirstTokenMs: 1,
      modelMs: 1,
      toolMs: 1,
      approvalMs: 0,
      overheadBeforeMs: 0.25,
      overheadAfterMs: n === 2 ? null : 0.5,
      gapMs: null,
      bytesSent: 100 * n,
      bytesReceived: 10,
      inputTokens: 1000 * n,
      cachedTokens: 0,
      outputTokens: 5,
      itemsSent: 1,
      contextTokens: 1000 * n,
    });
    const record = (trace: string, inputTokens: number, compaction: TurnRecord['compaction'] = null): TurnRecord => ({
      transport: 'ws',
      responseId: 'resp_1',
      outcome: 'completed',
      chainedFrom: 'connection',
      parseMs: 0.5,
      loadMs: 0.25,
      workMs: 2,
      prefillMs: 1,
      inputTokens,
      cachedTokens: 0,
      outputTokens: 5,
      contextTokens: compaction ? 300 : inputTokens,
      tokenizedTokens: 700,
      compaction,
      trace,
    });
    const turns = longTurns(
      [metrics(1), metrics(2)],
      [
        record('warm-up', 900),
        record('step 1', 1000),
        record('step 2', 2000, { replacedTokens: 1800, summaryTokens: 180 }),
      ],
    );
    assert.deepEqual(turns, [
      {
        turn: 1,
        compacted: false,
        overhead_ms: 0.75,
        bytes_sent: 100,
        server_ms: 2.75,
        tokenized_tokens: 700,
        input_tokens: 1000,
        context_tokens: 1000,
      },
      {
        turn: 2,
        compacted: true,
        overhead_ms: 0.25,
        bytes_sent: 200,
        server_ms: 2.75,
        tokenized_tokens: 700,
        input_tokens: 2000,
        context_tokens: 300,
      },
    ]);
    assert.throws(() => longTurns([metrics(1)], []), /one answered request a turn/);
    assert.throws(
      () => longTurns([metrics(1)], [{ ...record('step 1', 1000), outcome: 'refused' }]),
      /one answered request a turn: 1 turns, server records refused/,
    );
  });

  it('prints each phase and compaction in turn order', () => {
    const { phases, compactions } = compactionPhases([task()]);
    const results: LongResults = {
      started_at: '2026-12-03T00:00:00.000Z',
      machine: { cpus: 2, cpu_model: 'test', node: 'v20', platform: 'linux x64' },
      simulation: {
        tps: 4000,
        prefill_us_per_token: 10,
        context_window: 5000,
        compact_threshold: 4000,
        reads: 7,
        tool_output_bytes: 10240,
      },
      modes: [{ mode: 'ws-chained', wall_ms: 1234, repetitions: 1, phases, compactions, turns: task() }],
    };
    const lines = longTable(results).split('\n');
    assert.match(lines[0] ?? '', /^long task: 7 reads of ~10 KB, a 5000-token window, compaction past 4000 tokens/);
    assert.deepEqual(
      lines.slice(2, 7).map((line) =>
        line
          .trim()
          .split(/\s{2,}/)
          .slice(1, 4),
      ),
      [
        ['2–3', 'before the 1st', '2.0k→3.0k'],
        ['4', 'compaction 1', '4.0k→0.5k'],
        ['5–6', 'after the 1st', '1.5k→2.5k'],
        ['7', 'compaction 2', '3.5k→0.6k'],
        ['8', 'after the 2nd', '1.6k→1.6k'],
      ],
    );
    assert.match(lines.at(-1) ?? '', /^wall \(median of 1\): ws-chained 1\.23 s$/);
  });
});
