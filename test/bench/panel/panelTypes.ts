import type { BenchMachine, Goal } from '../loop/benchTypes';
import type { ColdPrompt } from './coldPrompt';
import type { FrameSample } from './pageProbe';
import type { PromptStartSample } from './promptStartLog';

// What `npm run bench -- --panel --json FILE` writes. The `panel` object's first seven fields are a contract
// (issue 24: checks outside this repository read them); the others may grow.

export interface PanelRun {
  run: number;
  /** Enter in the prompt → the answer shown, as the driver saw it. */
  wall_ms: number;
  send_to_first_token_ms: number;
  /** Send → the prompt's entry in the page: the page → host → page round trip through the workbench. */
  send_to_echo_ms: number;
  /** Where the first token's time goes, each from Send: the prompt's echo arrives in the page as a message
   * (the round trip alone), the first model text arrives (the host started the task and the model answered),
   * that text is in the page's DOM (at the page's next animation frame); painted is send_to_first_token_ms. */
  send_to_echo_message_ms: number;
  send_to_first_text_message_ms: number;
  send_to_first_text_in_page_ms: number;
  /** Animation frames recorded from Send to the answer. */
  frames: number;
  frame_p50_ms: number;
  frame_p95_ms: number;
  long_tasks: number;
  /** Frames that showed a live diff (the patch's lines while the model wrote them), and the most lines shown. */
  live_diff_frames: number;
  live_diff_lines_max: number;
  /** Entries the page showed at the run's end. */
  entries: number;
}

export interface PanelFigures {
  tps: number;
  tool_calls: number;
  /** The extension host's per-turn client overhead (tool result ready → request on the wire, plus completed →
   * tool started), median over the turns after a tool result: the CLI bench's definition. */
  host_overhead_p50_ms: number;
  /** Long tasks of the panel's page itself (attribution `self`) from Send to answer, over every run. */
  long_tasks_over_50ms: number;
  /** requestAnimationFrame deltas in the page while it streams, 95th percentile over every run. */
  frame_p95_ms: number;
  /** Enter in the prompt → the first model text of that prompt painted, median over the runs (warm socket). */
  send_to_first_token_ms: number;
  /** The panel frame's JS heap after the runs (over 200 entries), after a collection. */
  page_heap_mb: number;
  /** The host's tool-to-request gap: a response's end → the next request on the wire, the tool included. */
  host_gap_p50_ms: number;
  host_turns: number;
  /** Each run's first request (the prompt's): on the wire → the first event of its response, in ms. */
  host_first_event_of_prompt_ms: number[];
  long_task_max_ms: number;
  /** Long tasks of the rest of the thread: in code-server the webview shares the workbench's event loop. */
  long_tasks_of_workbench: number;
  frame_p50_ms: number;
  page_heap_source: string;
  /** The same heap after the warm-up prompt, before the runs: what the conversation adds is the difference. */
  page_heap_before_mb: number;
  frames_recorded: number;
  /** Frames that took more than one and a half 60 Hz frames: a stutter someone sees. */
  frames_over_25ms: number;
  entries: number;
  runs: PanelRun[];
  /** Every frame of every run (time since Send, delta, entries shown): the report's chart. */
  frame_samples: FrameSample[][];
  long_task_samples: { start: number; duration: number; name: string }[][];
  /** A warm Send's host part: the prompt's arrival at the extension host → its request's bytes handed to the
   * socket, median over the runs (the `prompt start` line the extension logs, src/agent/timing/promptStart.ts). */
  host_prompt_start_p50_ms?: number;
  /** The same by phase, medians over the runs: echo, journal, agent, attachments, instructions, environment,
   * body, socket (promptStart.ts says what each covers). */
  host_prompt_start_phases_p50_ms?: Record<string, number>;
  /** Each run's prompt start, whole and by phase (these three are absent from results before 2026-12-06). */
  host_prompt_starts?: PromptStartSample[];
}

export interface PanelResults {
  started_at: string;
  machine: BenchMachine;
  panel: PanelFigures;
  /** A new window's first prompt, on the embedded backend (coldPrompt.ts). */
  cold: ColdPrompt;
  goals: Goal[];
}
