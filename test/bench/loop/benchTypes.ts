// The benchmark's results, as `--json FILE` writes them and the HTML report reads them. The fields of
// `runs` rows and `floor_rtt_us` are a contract (issue: the benchmark); others may be added.

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

export interface BenchResults {
  started_at: string;
  quick: boolean;
  machine: { cpus: number; cpu_model: string; node: string; platform: string };
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
}
