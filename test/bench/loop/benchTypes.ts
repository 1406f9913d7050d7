// The benchmark's results, as `--json FILE` writes them and the HTML report reads them. The fields of
// `runs` rows and `floor_rtt_us` are a contract (issue: the benchmark); others may be added.

import type { GapPhases } from '../../../src/agent/timing/turnGap';

export type ModeId = 'http-full' | 'http-chained' | 'ws-full' | 'ws-chained';

/** One (mode, tps, tool_calls) cell: medians over its repetitions. */
export interface RunRow {
  mode: ModeId;
  tps: number;
  tool_calls: number;
  /** Median task time, end to end. */
  wall_ms: number;
  /** Per-turn client overhead (tool result ready → request on the wire, plus completed → tool started). */
  overhead_p50_ms: number;
  overhead_p99_ms: number;
  /**
   * The tool-to-request gap: a response's terminal event → the next request on the wire, its one call (a
   * read of a ~10 KB file) and everything the client does around it included; median over those turns.
   */
  gap_p50_ms: number;
  /** The same gaps' 90th percentile (nearest rank): the tail the median hides (issue 51). */
  gap_p90_ms: number;
  /** Each task's first gap (after its first tool call, the loop's code coldest), the median over the tasks. */
  gap_first_ms: number;
  /** That first gap split at the loop's phases (turnGap.ts), medians; absent in results written before it. */
  gap_first_phases_ms?: GapPhases;
  bytes_sent_per_turn: number;
  /** The server's own work per turn: decode, validate, load state, render and tokenize. */
  server_ms_per_turn: number;
  /** Tokens of context at the task's end. */
  history_tokens: number;
  repetitions: number;
  /** Spread of wall_ms over the repetitions. */
  wall_min_ms: number;
  wall_max_ms: number;
  ttft_p50_ms: number;
  /** Input tokens per turn not served from the prompt cache (the prefill the simulated model pays). */
  uncached_tokens_per_turn: number;
  client_cpu_ms: number;
  server_cpu_ms: number;
  /** The network the cell ran over (`--network`); absent in results written before the flag. */
  network?: RunNetwork;
}

/** A network the bench runs over: loopback, or a user's line emulated by netemProxy.ts (`--network wan`). */
export interface NetworkProfile {
  name: 'loopback' | 'wan';
  /** The round trip added, ms (0 on loopback). */
  rtt_ms: number;
  /** Client → server rate, Mbit/s; null: no limit. */
  uplink_mbit: number | null;
  /** Server → client rate, Mbit/s; null: no limit. */
  downlink_mbit: number | null;
}

/** A cell's network: its profile, and what crossed the proxy per task (medians; null on loopback: no proxy). */
export interface RunNetwork extends NetworkProfile {
  /** TCP connections opened per task: over HTTP, whether the client kept its connection between turns. */
  connections_per_task: number | null;
  /** Bytes client → server per task, headers and framing included. */
  bytes_up_per_task: number | null;
  bytes_down_per_task: number | null;
}

/** One cell on one profile, for the side-by-side table: its modes' wall times and the ratio the goal judges. */
export interface NetworkComparison {
  profile: NetworkProfile['name'];
  tps: number;
  tool_calls: number;
  wall_ms: Partial<Record<ModeId, number>>;
  /** 1 − ws-chained / http-full wall time; null when a mode did not run. */
  ws_chained_faster: number | null;
}

/** Per-turn overhead at one history size (the scaling sweep). */
export interface ScalingPoint {
  mode: ModeId;
  history_tokens: number;
  overhead_p50_ms: number;
  bytes_sent_per_turn: number;
  server_ms_per_turn: number;
}

export interface Goal {
  name: string;
  met: boolean;
  detail: string;
}

export interface BenchMachine {
  cpus: number;
  cpu_model: string;
  node: string;
  platform: string;
}

export interface BenchResults {
  started_at: string;
  quick: boolean;
  machine: BenchMachine;
  /** Every simulated constant, printed so that nothing flatters a mode unseen. */
  simulation: { prefill_us_per_token: number; prompt_cache: string; tps_values: number[]; tool_output_bytes: number };
  runs: RunRow[];
  scaling: ScalingPoint[];
  /** Bare loopback WebSocket round trip with a 4 KB payload, median. */
  floor_rtt_us: number;
  /** The same with the mean turn's payload (ws-chained). */
  floor_rtt_turn_payload_us: number;
  floor_turn_payload_bytes: number;
  goals: Goal[];
  /** The profiles run (`--network`), each with the round trip measured through it; absent in older results. */
  networks?: Array<NetworkProfile & { measured_rtt_ms: number | null }>;
  /** Every cell on every profile, side by side. */
  network_comparison?: NetworkComparison[];
}

// The long-task mode (`npm run bench -- --long`): one task whose context crosses the compaction threshold
// several times, its turns split at each compaction. `--json FILE` writes LongResults; fields may be added.

/** One turn of a long task: the client's figures and the server's for the same request. */
export interface LongTurn {
  turn: number;
  /** This turn's response began with a compaction (its request still carried the whole context). */
  compacted: boolean;
  /** Client overhead: tool result ready → request on the wire, plus completed → tool started. */
  overhead_ms: number;
  bytes_sent: number;
  /** The server's own work on the request: decode, validate, load state, render and tokenize. */
  server_ms: number;
  /** Tokens the server rendered and counted anew for the request (its tokenizer's work). */
  tokenized_tokens: number;
  /** Tokens of the rendered input (`usage.input_tokens`). */
  input_tokens: number;
  /** Tokens of the context the model answered from: after a compaction, the compacted one. */
  context_tokens: number;
}

/** The turns between two compactions (or before the first, after the last): medians over them. */
export interface LongPhase {
  /** Compactions before this phase: 0 before the first. */
  after_compactions: number;
  first_turn: number;
  last_turn: number;
  /** Turns in the phase, over every repetition. */
  turns: number;
  /** The input tokens of the phase's first and last turn (first repetition). */
  input_tokens_first: number;
  input_tokens_last: number;
  overhead_p50_ms: number;
  bytes_sent_per_turn: number;
  server_ms_per_turn: number;
  tokenized_tokens_per_turn: number;
}

/** One compaction (a turn whose response began with one): medians over the repetitions. */
export interface LongCompaction {
  turn: number;
  tokens_before: number;
  tokens_after: number;
  overhead_ms: number;
  bytes_sent: number;
  server_ms: number;
  tokenized_tokens: number;
}

export interface LongModeResult {
  mode: ModeId;
  /** Median task time, end to end. */
  wall_ms: number;
  repetitions: number;
  compactions: LongCompaction[];
  phases: LongPhase[];
  /** Every turn of the first repetition. */
  turns: LongTurn[];
}

export interface LongResults {
  started_at: string;
  machine: BenchMachine;
  simulation: {
    tps: number;
    prefill_us_per_token: number;
    context_window: number;
    compact_threshold: number;
    reads: number;
    tool_output_bytes: number;
  };
  modes: LongModeResult[];
}
