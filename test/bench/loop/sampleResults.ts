// A realistic BenchResults for working on the HTML report without running the benchmark: all four modes,
// 65/1000/4000 tokens/s, 20 and 50 tool calls, a scaling sweep from 1k to 200k tokens, one goal missed.
// The figures come from a small cost model (below) plus a fixed jitter, so they are consistent with each
// other the way measured ones are; they are not measurements.
import type { BenchResults, Goal, ModeId, RunRow, ScalingPoint } from './benchTypes';

const MODES: ModeId[] = ['http-full', 'http-chained', 'ws-full', 'ws-chained'];
const TPS = [65, 1000, 4000];
const TOOL_CALLS = [20, 50];
const PREFILL_US_PER_TOKEN = 20;
const TOOL_OUTPUT_BYTES = 6144;
/** Tokens the history grows by per turn: a tool output and the call that asked for it. */
const TOKENS_PER_TURN = 1700;
const OUTPUT_TOKENS_PER_TURN = 60;
const BYTES_PER_TOKEN = 4.1;
const FLOOR_RTT_US = 48;

const full = (mode: ModeId): boolean => mode.endsWith('-full');
const historyAt = (turn: number): number => 2500 + turn * TOKENS_PER_TURN;

/** A fixed pseudo-random factor in [1 - spread, 1 + spread], the same for the same seed. */
function jitter(seed: number, spread: number): number {
  const x = Math.sin(seed * 12.9898 + 78.233) * 43758.5453;
  return 1 + (x - Math.floor(x) - 0.5) * 2 * spread;
}

/** Client overhead per turn (ms) with `history` tokens of context. */
function overheadMs(mode: ModeId, history: number): number {
  const mb = (history * BYTES_PER_TOKEN) / 1e6;
  switch (mode) {
    case 'http-full':
      return 0.45 + mb * 14;
    case 'ws-full':
      return 0.2 + mb * 11;
    case 'http-chained':
      return 0.55 + history * 2e-7;
    case 'ws-chained':
      return 0.09 + history * 1.5e-7;
  }
}
const serverMs = (mode: ModeId, history: number): number =>
  full(mode) ? 0.3 + history * 0.00011 : 0.25 + history * 0.0000015;
const bytesSent = (mode: ModeId, history: number): number =>
  full(mode) ? history * BYTES_PER_TOKEN : TOOL_OUTPUT_BYTES + (mode === 'http-chained' ? 720 : 410);

function run(mode: ModeId, tps: number, calls: number, seed: number): RunRow {
  const turns = Array.from({ length: calls + 1 }, (_, t) => historyAt(t));
  const mean = (f: (h: number) => number): number => turns.reduce((s, h) => s + f(h), 0) / turns.length;
  const prefill = (TOKENS_PER_TURN * PREFILL_US_PER_TOKEN) / 1000;
  const perTurn = (h: number): number =>
    (OUTPUT_TOKENS_PER_TURN / tps) * 1000 + prefill + 1.5 + overheadMs(mode, h) + serverMs(mode, h);
  const wall = turns.reduce((s, h) => s + perTurn(h), 0) * jitter(seed, 0.004);
  const overhead = mean((h) => overheadMs(mode, h)) * jitter(seed + 1, 0.05);
  const server = mean((h) => serverMs(mode, h)) * jitter(seed + 2, 0.04);
  return {
    mode,
    tps,
    tool_calls: calls,
    wall_ms: wall,
    overhead_p50_ms: overhead,
    overhead_p99_ms: overhead * 1.6 + 0.2,
    gap_p50_ms: overhead + 0.3,
    gap_p90_ms: overhead * 1.4 + 0.4,
    gap_first_ms: overhead * 2 + 0.6,
    bytes_sent_per_turn: Math.round(mean((h) => bytesSent(mode, h))),
    server_ms_per_turn: server,
    history_tokens: historyAt(calls) + 40,
    repetitions: 5,
    wall_min_ms: wall * (0.985 - 0.01 * jitter(seed + 3, 1)),
    wall_max_ms: wall * (1.01 + 0.015 * jitter(seed + 4, 1)),
    ttft_p50_ms: prefill + 1000 / tps + overhead + server,
    uncached_tokens_per_turn: Math.round(full(mode) ? mean((h) => h) : TOKENS_PER_TURN + 60),
    client_cpu_ms: turns.length * overhead * (full(mode) ? 0.85 : 0.6),
    server_cpu_ms: turns.length * (server + 0.4),
  };
}

const runs: RunRow[] = TPS.flatMap((tps, i) =>
  TOOL_CALLS.flatMap((calls, j) => MODES.map((mode, k) => run(mode, tps, calls, i * 100 + j * 10 + k))),
);

const scaling: ScalingPoint[] = MODES.flatMap((mode, k) =>
  [1_000, 10_000, 50_000, 100_000, 200_000].map((history, i) => ({
    mode,
    history_tokens: history,
    overhead_p50_ms: overheadMs(mode, history) * jitter(500 + k * 10 + i, 0.05),
    bytes_sent_per_turn: Math.round(bytesSent(mode, history)),
    server_ms_per_turn: serverMs(mode, history) * jitter(600 + k * 10 + i, 0.04),
  })),
);

const cell = (mode: ModeId, tps: number, calls: number): RunRow =>
  runs.find((r) => r.mode === mode && r.tps === tps && r.tool_calls === calls) ?? runs[0]!;
const point = (mode: ModeId, history: number): ScalingPoint =>
  scaling.find((p) => p.mode === mode && p.history_tokens === history) ?? scaling[0]!;
const faster = (tps: number, calls: number): number =>
  (1 - cell('ws-chained', tps, calls).wall_ms / cell('http-full', tps, calls).wall_ms) * 100;

const [wsBig, wsSmall, httpBig] = [
  point('ws-chained', 200_000),
  point('ws-chained', 1_000),
  point('http-full', 200_000),
];
const goals: Goal[] = [
  {
    name: 'ws-chained overhead under 0.5 ms per turn at 200k tokens',
    met: wsBig.overhead_p50_ms < 0.5,
    detail: `${wsBig.overhead_p50_ms.toFixed(2)} ms (http-full: ${httpBig.overhead_p50_ms.toFixed(1)} ms)`,
  },
  {
    name: 'ws-chained overhead flat in history size (at most 1.5× from 1k to 200k tokens)',
    met: wsBig.overhead_p50_ms / wsSmall.overhead_p50_ms <= 1.5,
    detail: `${wsSmall.overhead_p50_ms.toFixed(2)} ms → ${wsBig.overhead_p50_ms.toFixed(2)} ms (×${(wsBig.overhead_p50_ms / wsSmall.overhead_p50_ms).toFixed(2)})`,
  },
  {
    name: 'ws-chained at least 10% faster than http-full at 4000 tokens/s, 50 tool calls',
    met: faster(4000, 50) >= 10,
    detail: `${faster(4000, 50).toFixed(1)}% faster`,
  },
  {
    name: 'ws-chained at least 5% faster than http-full at 65 tokens/s, 50 tool calls',
    met: faster(65, 50) >= 5,
    detail: `${faster(65, 50).toFixed(1)}% faster: at 65 tokens/s generation dominates the turn`,
  },
  {
    name: 'ws-chained sends the same bytes per turn at any history size',
    met: Math.abs(wsBig.bytes_sent_per_turn - wsSmall.bytes_sent_per_turn) < 512,
    detail: `${(wsSmall.bytes_sent_per_turn / 1024).toFixed(1)} KB at 1k tokens, ${(wsBig.bytes_sent_per_turn / 1024).toFixed(1)} KB at 200k`,
  },
];

export const SAMPLE_RESULTS: BenchResults = {
  started_at: '2025-06-12T09:41:07.512Z',
  quick: false,
  machine: { cpus: 16, cpu_model: 'AMD EPYC 7B13 64-Core Processor', node: 'v22.12.0', platform: 'linux x64' },
  simulation: {
    prefill_us_per_token: PREFILL_US_PER_TOKEN,
    prompt_cache: 'prefix cache in every mode: only tokens past the cached prefix are prefilled',
    tps_values: TPS,
    tool_output_bytes: TOOL_OUTPUT_BYTES,
  },
  runs,
  scaling,
  floor_rtt_us: FLOOR_RTT_US,
  floor_rtt_turn_payload_us: 71,
  floor_turn_payload_bytes: TOOL_OUTPUT_BYTES + 410,
  goals,
};
