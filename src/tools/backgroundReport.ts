import { t } from '@vscode/l10n';
import { z } from 'zod';
import type { CommandProgress } from '../workspace';
import type { BackgroundCommands } from './backgroundCommands';
import { translating } from './errorDisplay';
import { TOOL_OUTPUT_BUDGET_TOKENS, CHARS_PER_TOKEN, headAndTail, outputLabel, runReport } from './runReport';
import type { ToolResult } from './tool';

// How a command that may run on (exec_command with a session, write_stdin) is told to the model, in the
// shape of Codex's unified exec: once it has ended, as any run (its exit code, its output's head and tail);
// while it runs, what it printed so far and the session id to poll it or write to it with.

/** The largest output budget a call may ask for (a bound the schema states; about 400 KB). */
const MAX_OUTPUT_TOKENS = 100_000;

/** At most how long a call waits before it answers with the output so far. */
const MAX_YIELD_MS = 300_000;

/** The `yield_time_ms` argument: how long to wait for the command before answering, by default `ms`. */
export function yieldArgument(ms: number) {
  // No `.int()`: zod states it as a maximum of 2^53 in the schema, tokens every request pays for.
  return z.number().min(0).max(MAX_YIELD_MS).optional().describe(`Wait at most this many ms (default ${ms}).`);
}

/**
 * The `max_output_tokens` argument: the output's budget in this answer (its head and tail are kept), by default
 * `tokens` (the model's own, offered in its schema: `ToolDefinition.offeredArgs`).
 */
export function maxOutputArgument(tokens: number = TOOL_OUTPUT_BUDGET_TOKENS) {
  return z.number().positive().max(MAX_OUTPUT_TOKENS).optional().describe(`Tokens of output kept (default ${tokens}).`);
}

/** One look at session `id` (`what`: `The command`, `Session 3 (npm run dev)`), told within `budget` tokens. */
export function sessionReport(
  what: string,
  id: number,
  seen: { progress: CommandProgress; timeoutS: number; sessions: BackgroundCommands; budget: number | undefined },
): ToolResult {
  const { progress, timeoutS, sessions } = seen;
  const budget = seen.budget ?? TOOL_OUTPUT_BUDGET_TOKENS;
  if (progress.end) {
    // The model now knows how it ended: the id is done with.
    sessions.forget(id);
    return runReport(what, timeoutS, { ...progress.end, ...progress }, budget);
  }
  const head =
    `${what} is still running, in the background as session_id ${id}. ` +
    `Poll it or send it input with write_stdin (session_id ${id}; empty chars polls); its timeout_s still stops it.`;
  // The person is told it runs on in their language; how to poll it is the model's business.
  const shownHead = translating() ? t('Still running, in the background as session {0}.', id) : undefined;
  const text = progress.output.trimEnd();
  if (text === '') {
    const output = `${head}\n(no new output)`;
    return shownHead === undefined
      ? { ok: true, output }
      : { ok: true, output, shown: `${shownHead}\n${t('(no new output)')}` };
  }
  const kept = headAndTail(text, budget * CHARS_PER_TOKEN);
  return {
    ok: true,
    output: `${head}\n${OUTPUT_SO_FAR}\n${kept}`,
    ...(kept === text ? {} : { display: `${head}\n${OUTPUT_SO_FAR}\n${text}` }),
    ...(shownHead === undefined ? {} : { shown: `${shownHead}\n${outputLabel(true)}\n${text}` }),
  };
}

/**
 * The session an exec_command call's output says the command goes on in (the first line `sessionReport` wrote
 * for it, in the model's words: English in every language); undefined for any other output, write_stdin's
 * polls included. How the panel's card of the call knows to say it still runs.
 */
export function backgroundCommandOf(output: string): number | undefined {
  const id = /^The command(?: \(run as: [\s\S]*?\))? is still running, in the background as session_id (\d+)\. /.exec(
    output,
  )?.[1];
  return id === undefined ? undefined : Number(id);
}

/** The line between a running command's first line and its output, as the model reads it. */
const OUTPUT_SO_FAR = '--- output so far ---';
