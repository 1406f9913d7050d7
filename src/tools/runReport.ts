import { t } from '@vscode/l10n';
import { z } from 'zod';
import type { TaskRun } from '../workspace';
import { translating } from './errorDisplay';
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
  budgetTokens = TOOL_OUTPUT_BUDGET_TOKENS,
): Promise<ToolResult> {
  const timeout = timeoutS ?? TASK_DEFAULT_TIMEOUT_S;
  return runReport(what, timeout, await start(timeout * 1000), budgetTokens);
}

/**
 * Tokens of a run's output in one answer by default (Codex's budget); a tool call's `max_output_tokens`, or a
 * model's own budget, may say otherwise. Counted as four characters a token: a budget, not a bill.
 */
export const TOOL_OUTPUT_BUDGET_TOKENS = 10_000;
export const CHARS_PER_TOKEN = 4;

/** `what` (`Task 'npm: test'`, `Command 'ls'`) ran as `run`, given `timeoutS` seconds; its output within `budgetTokens`. */
export function runReport(
  what: string,
  timeoutS: number,
  run: TaskRun,
  budgetTokens = TOOL_OUTPUT_BUDGET_TOKENS,
): ToolResult {
  const seconds = (run.durationMs / 1000).toFixed(1);
  const head = run.timedOut
    ? `${what} timed out after ${timeoutS} s and was stopped (its whole process tree).`
    : run.exitCode === null
      ? `${what} was killed by a signal after ${seconds} s (no exit code).`
      : `${what} finished with exit code ${run.exitCode} after ${seconds} s.`;
  const ok = run.exitCode === 0;
  const shownHead = runHeadDisplay(run, timeoutS, seconds);
  const text = run.output.trimEnd();
  if (text === '') {
    const output = `${head}\n(no output)`;
    return shownHead === undefined ? { ok, output } : { ok, output, shown: `${shownHead}\n${t('(no output)')}` };
  }
  const kept = headAndTail(text, budgetTokens * CHARS_PER_TOKEN);
  // The model gets what fits its budget; the person watching (in their language) and --json get all of it.
  return {
    ok,
    output: `${head}\n${OUTPUT_LABEL}\n${kept}`,
    ...(kept === text ? {} : { display: `${head}\n${OUTPUT_LABEL}\n${text}` }),
    ...(shownHead === undefined ? {} : { shown: `${shownHead}\n${outputLabel(false)}\n${text}` }),
  };
}

/** The line between a run's first line and its output, as the model reads it. */
const OUTPUT_LABEL = '--- output ---';

/** That line as the person reads it (English: the model's); `soFar`: of a command still running. */
export function outputLabel(soFar: boolean): string {
  return soFar ? `--- ${t('output so far')} ---` : `--- ${t('output')} ---`;
}

/** How a run ended, in the person's language (the card and the terminal name the command); English: undefined. */
function runHeadDisplay(run: TaskRun, timeoutS: number, seconds: string): string | undefined {
  if (!translating()) return undefined;
  if (run.timedOut) return t('Timed out after {0} s and was stopped (with every process it started).', timeoutS);
  if (run.exitCode === null) return t('Killed by a signal after {0} s (no exit code).', seconds);
  return t('Finished with exit code {0} after {1} s.', run.exitCode, seconds);
}

/**
 * `text` within `maxChars`: its first lines and its last, about half of the budget each, and between them
 * one line saying how many lines were cut from the middle. Whole lines only, unless one line alone is
 * longer than its half.
 */
export function headAndTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  let headEnd = text.lastIndexOf('\n', half);
  if (headEnd <= 0) headEnd = half;
  let tailStart = text.indexOf('\n', text.length - half);
  if (tailStart < 0 || tailStart < headEnd) tailStart = text.length - half;
  else tailStart += 1;
  const middle = text.slice(headEnd, tailStart);
  const lines = middle.split('\n').length - 1;
  const what =
    lines > 0
      ? `${lines.toLocaleString('en-US')} lines (${middle.length.toLocaleString('en-US')} characters)`
      : `${middle.length.toLocaleString('en-US')} characters`;
  return `${text.slice(0, headEnd)}\n[… ${what} cut from the middle …]\n${text.slice(tailStart)}`;
}
