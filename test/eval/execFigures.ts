// A run's figures, read from what `loopwire exec --json` prints: the agent's events (src/agent/events.ts),
// one JSON object a line. Each turn's `turn_finished` carries its tokens and times; `done` closes the run.
import { AgentEvent, type TurnMetrics } from '../../src/agent/events';
import type { ExecFigures } from './evalTypes';

/** The events of `stdout`; a line that is not one is named in `unreadable`. */
export function readEvents(stdout: string): { events: AgentEvent[]; unreadable: string[] } {
  const events: AgentEvent[] = [];
  const unreadable: string[] = [];
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      unreadable.push(line.slice(0, 120));
      continue;
    }
    const parsed = AgentEvent.safeParse(json);
    if (parsed.success) events.push(parsed.data);
    else unreadable.push(line.slice(0, 120));
  }
  return { events, unreadable };
}

/** Sums a run's events into its figures. */
export function figuresOf(
  events: readonly AgentEvent[],
  run: { exitCode: number | null; processMs: number; stderr: string },
): ExecFigures {
  const turns: TurnMetrics[] = events.flatMap((event) => (event.type === 'turn_finished' ? [event.metrics] : []));
  const done = events.findLast((event) => event.type === 'done');
  const sum = (pick: (turn: TurnMetrics) => number) => turns.reduce((total, turn) => total + pick(turn), 0);
  const missing: string[] = [];
  if (done === undefined)
    missing.push('the done event (tool calls counted from tool_started, wall time is the process)');
  return {
    exitCode: run.exitCode,
    status: done?.status ?? '(no done event)',
    reason: done?.reason ?? '',
    responses: turns.length,
    toolCalls: done?.toolCalls ?? events.filter((event) => event.type === 'tool_started').length,
    wallMs: done?.wallMs ?? run.processMs,
    processMs: run.processMs,
    tokens: {
      input: sum((turn) => turn.inputTokens),
      cached: sum((turn) => turn.cachedTokens),
      output: sum((turn) => turn.outputTokens),
    },
    modelMs: sum((turn) => turn.timeToFirstEventMs + turn.modelMs),
    toolMs: sum((turn) => turn.toolMs),
    chainedTurns: turns.filter((turn) => turn.chained).length,
    missing,
    stderrTail: run.stderr.trim().split('\n').slice(-3).join(' ⏎ '),
  };
}
