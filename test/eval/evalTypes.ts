// The eval's shapes: a task as test/eval/tasks/NAME/task.json declares it, and what one run of it reports.
// The report's snake_case fields (`name`, `transport`, `passed`, `responses`, `tool_calls`, `wall_ms`, `tokens`,
// `ms_per_turn`) are a contract: `npm run eval -- --json FILE` writes them for other tools to read.
import * as z from 'zod';

export const TRANSPORTS = ['ws', 'http'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** task.json: what the task is and the prompt the model gets. Strict: a misspelt key is an error. */
export const TaskFile = z.strictObject({
  /** What the task exercises, for the report ("a failing test to fix"). */
  kind: z.string().min(1),
  /** The prompt, as a user would type it; the scripted solution's `match` must fit it. */
  prompt: z.string().min(1),
  /** How long one run may take before it is stopped, in seconds (default: the eval's --timeout-s). */
  timeout_s: z.number().positive().optional(),
});
export type TaskFile = z.infer<typeof TaskFile>;

/** A task found on disk. */
export interface EvalTask extends TaskFile {
  /** The folder's name. */
  name: string;
  /** The task's folder. */
  dir: string;
  /** The project the agent works on, copied afresh for each run. */
  fixture: string;
  /** Exits 0 when the task is done, run in the workspace. */
  check: string;
  /** The scripted solution: a scenario file for the embedded backend. */
  solution: string;
}

export interface Tokens {
  input: number;
  cached: number;
  output: number;
}

/** What one `loopwire exec --json` run said about itself. */
export interface ExecFigures {
  /** The process's exit status (null: it was killed). */
  exitCode: number | null;
  /** The `done` event's status and reason; `(no done event)` when there was none. */
  status: string;
  reason: string;
  /** Model responses: the `turn_finished` events. */
  responses: number;
  /** The `done` event's count of tool calls (the `tool_started` events without one). */
  toolCalls: number;
  /** The agent's own wall time (`done.wallMs`), else the process's. */
  wallMs: number;
  /** The process's wall time, start-up included. */
  processMs: number;
  tokens: Tokens;
  /** Time spent waiting on the model: each request on the wire to its response's last event, summed. */
  modelMs: number;
  /** Time spent in tools, summed over turns. */
  toolMs: number;
  /** Turns whose request was chained on the server's state (`previous_response_id`). */
  chainedTurns: number;
  /** Figures the event stream did not carry, named (the run's figures are then partial). */
  missing: string[];
  /** The last lines of its stderr, for a run that failed. */
  stderrTail: string;
}

/** One task over one transport, as reported (the contract's fields first, then the rest). */
export interface TaskResult {
  name: string;
  transport: Transport;
  /** The check script's verdict. */
  passed: boolean;
  responses: number;
  tool_calls: number;
  wall_ms: number;
  tokens: Tokens;
  /** wall_ms / responses: the loop's time per model response, tools included. */
  ms_per_turn: number;
  /** Which of the task's runs over this transport (1, then 2… with --runs). */
  run: number;
  /** The task's kind, from its task.json. */
  kind: string;
  /** loopwire exec's exit status (null: stopped at --timeout-s), and its `done` event's status and reason. */
  exit_code: number | null;
  status: string;
  reason: string;
  /** Time waiting on the model (ExecFigures.modelMs) and in tools, summed over the responses. */
  model_ms: number;
  tool_ms: number;
  /** The process's wall time, its start-up included. */
  process_ms: number;
  /** Responses whose request was chained on the server's state. */
  chained_turns: number;
  /** How long the check took. */
  check_ms: number;
  /** Why the check failed (its last stderr line), or why the run did. */
  note: string;
  missing: string[];
}

/** A check run on its untouched fixture: it must fail there, or it proves nothing. */
export interface FixtureCheck {
  name: string;
  /** The check failed on the untouched fixture, as it must. */
  fails_untouched: boolean;
  note: string;
}

export interface EvalReport {
  /** `embedded` (scripted solutions, offline) or the endpoint's URL. */
  endpoint: string;
  model: string;
  started_at: string;
  machine: string;
  tasks: TaskResult[];
  fixture_checks: FixtureCheck[];
  /** Everything held: every task passed, every check failed on its untouched fixture. */
  ok: boolean;
}
