import { z } from 'zod';
import type { TaskRun } from '../workspace';
import type { ToolResult } from './tool';

// A run (a task, a shell command): its `timeout_s` argument, and how it is told to the model — one line
// saying how it ended (its exit code, a timeout, a signal), then the end of its output, where the result and
// the errors are.

export const TASK_DEFAULT_TIMEOUT_S = 300;
export const TASK_MAX_TIMEOUT_S = 3600;

/** The `timeout_s` argument of a tool that runs `what` (`task`, `command`). */
export function timeoutArgument(what: string) {
  return z
    .number()
    .positive()
    .max(TASK_MAX_TIMEOUT_S)
    .optional()
    .describe(`Stop the ${what} after this many seconds (default ${TASK_DEFAULT_TIMEOUT_S}).`);
}

/** Runs `start` with the call's timeout (`timeoutS`, else the default) and reports how `what` went. */
export async function timedRun(
  what: string,
  timeoutS: number | undefined,
  start: (timeoutMs: number) => Promise<TaskRun>,
): Promise<ToolResult> {
  const timeout = timeoutS ?? TASK_DEFAULT_TIMEOUT_S;
  return runReport(what, timeout, await start(timeout * 1000));
}

/** Characters of a run's output in one answer. */
export const TASK_OUTPUT_MAX_CHARS = 16_000;

/** `what` (`Task 'npm: test'`, `Command 'ls'`) ran as `run`, given `timeoutS` seconds. */
function runReport(what: string, timeoutS: number, run: TaskRun): ToolResult {
  const seconds = (run.durationMs / 1000).toFixed(1);
  const head = run.timedOut
    ? `${what} timed out after ${timeoutS} s and was stopped (its whole process tree).`
    : run.exitCode === null
      ? `${what} was killed by a signal after ${seconds} s (no exit code).`
      : `${what} finished with exit code ${run.exitCode} after ${seconds} s.`;
  const text = run.output.trimEnd();
  if (text === '') return { ok: run.exitCode === 0, output: `${head}\n(no output)` };
  const cut = text.length > TASK_OUTPUT_MAX_CHARS || run.outputTruncated;
  const tail =
    text.length > TASK_OUTPUT_MAX_CHARS
      ? text.slice(text.indexOf('\n', text.length - TASK_OUTPUT_MAX_CHARS) + 1)
      : text;
  const label = cut ? `--- last ${tail.split('\n').length} lines of output ---` : '--- output ---';
  return { ok: run.exitCode === 0, output: `${head}\n${label}\n${tail}` };
}
