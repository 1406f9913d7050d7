import { z } from 'zod';
import { controlOf, isResult } from './agentAnswers';
import { jsonArguments } from './callSummary';
import { defineTool, failure, success } from './tool';

// Codex's wait, by its names and answer (`{status: {id: status}, timed_out}`): the model blocks until a
// subagent it started has an answer. It returns as soon as one of the ids reaches a final status (an answer,
// an error, closed) that no earlier wait reported, with every final status among them; or, after the
// timeout, with none (`timed_out: true`). As Codex does, the timeout is held between 10 s and an hour, so a
// short one does not turn into a busy poll.

export const WAIT_MIN_MS = 10_000;
export const WAIT_DEFAULT_MS = 30_000;
export const WAIT_MAX_MS = 3_600_000;

const WaitArgs = z.object({
  ids: z.array(z.string().min(1)).describe('The ids of the subagents to wait for (spawn_agent returned them).'),
  // No `.int()`: zod states it as bounds of 2^53 in the schema, tokens every request pays for (sessionReport.ts).
  timeout_ms: z
    .number()
    .optional()
    .describe(
      `How long to wait at most, in milliseconds (${WAIT_MIN_MS} to ${WAIT_MAX_MS}; default ${WAIT_DEFAULT_MS}).`,
    ),
});

/** The ids a call waits for, for its line. */
function waitSummary(input: string): string {
  const ids = jsonArguments(input).ids;
  return Array.isArray(ids) ? ids.filter((id) => typeof id === 'string').join(', ') : '';
}

export const waitAgentsTool = defineTool({
  name: 'wait',
  description:
    'Waits until one of the given subagents finishes (answers, fails or is closed), then returns the status of each that has finished; a completed status carries its answer. Call it again with the ids still running to collect the rest. Returns with timed_out: true and no status if none finished in time; you may wait again.',
  args: WaitArgs,
  effect: 'read',
  optIn: 'agents',
  summarize: waitSummary,
  run: async (args, context) => {
    const control = controlOf(context.agents);
    if (isResult(control)) return control;
    if (args.ids.length === 0) return failure('ids must name at least one subagent.');
    if (args.timeout_ms !== undefined && args.timeout_ms <= 0) return failure('timeout_ms must be greater than zero.');
    const timeout = Math.min(WAIT_MAX_MS, Math.max(WAIT_MIN_MS, args.timeout_ms ?? WAIT_DEFAULT_MS));
    const { status, timedOut } = await control.wait(args.ids, timeout, context.signal);
    return success(JSON.stringify({ status, timed_out: timedOut }));
  },
});
