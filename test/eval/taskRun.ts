// One row of the eval: a fresh copy of the task's project, `loopwire exec` on it, then the task's check.
import type { EvalOptions } from './evalArgs';
import { runCheck } from './checkRun';
import { runExec } from './execRun';
import type { EvalTask, FixtureCheck, TaskResult, Transport } from './evalTypes';
import { copyFixture } from './workspaceCopy';

/** Runs `task` over `transport` and checks what it left; the copy is removed unless `options.keep`. */
export async function runTask(
  task: EvalTask,
  transport: Transport,
  run: number,
  options: EvalOptions,
): Promise<TaskResult> {
  const copy = await copyFixture(task.fixture, `${task.name}-${transport}`);
  try {
    const figures = await runExec(task, transport, options, copy);
    const verdict = await runCheck(task, copy.dir);
    const failedRun = figures.exitCode !== 0 ? `exec: ${figures.status}: ${figures.reason || figures.stderrTail}` : '';
    return {
      name: task.name,
      transport,
      passed: verdict.passed,
      responses: figures.responses,
      tool_calls: figures.toolCalls,
      wall_ms: round(figures.wallMs),
      tokens: figures.tokens,
      ms_per_turn: figures.responses > 0 ? round(figures.wallMs / figures.responses) : 0,
      run,
      kind: task.kind,
      exit_code: figures.exitCode,
      status: figures.status,
      reason: figures.reason,
      model_ms: round(figures.modelMs),
      tool_ms: round(figures.toolMs),
      process_ms: round(figures.processMs),
      chained_turns: figures.chainedTurns,
      check_ms: round(verdict.ms),
      note: [verdict.passed ? '' : verdict.note, failedRun, options.keep ? `kept in ${copy.dir}` : '']
        .filter((part) => part !== '')
        .join('; '),
      missing: figures.missing,
    };
  } finally {
    if (!options.keep) await copy.remove();
  }
}

/** The task's check on an untouched copy of its project: it must fail there. */
export async function checkUntouched(task: EvalTask): Promise<FixtureCheck> {
  const copy = await copyFixture(task.fixture, `${task.name}-untouched`);
  try {
    const verdict = await runCheck(task, copy.dir);
    return {
      name: task.name,
      fails_untouched: !verdict.passed,
      note: verdict.passed ? 'it passes on the untouched project, so it proves nothing' : verdict.note,
    };
  } finally {
    await copy.remove();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
