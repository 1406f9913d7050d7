import { z } from 'zod';
import { summarizeArgument } from './callSummary';
import { defineTool, failure } from './tool';

export const TASK_DEFAULT_TIMEOUT_S = 300;
export const TASK_MAX_TIMEOUT_S = 3600;
/** Characters of a task's output in one answer: the end, where the result and the errors are. */
export const TASK_OUTPUT_MAX_CHARS = 16_000;

export const RunTaskArgs = z.object({
  label: z.string().min(1).describe('The task\'s label, as list_tasks shows it (e.g. "npm: test").'),
  timeout_s: z
    .number()
    .positive()
    .max(TASK_MAX_TIMEOUT_S)
    .optional()
    .describe(`Stop the task after this many seconds (default ${TASK_DEFAULT_TIMEOUT_S}).`),
});

export const runTaskTool = defineTool({
  name: 'run_task',
  description:
    "Run one of the workspace's tasks to its end and return its exit code and the end of its output. A task that runs past timeout_s is stopped with everything it started.",
  args: RunTaskArgs,
  effect: 'task',
  requires: 'tasks',
  outputShape: 'tail',
  summarize: summarizeArgument('label'),
  async run(args, { workspace }) {
    if (!workspace.capabilities.tasks) return failure('Tasks are not available in this workspace.');
    const timeout = args.timeout_s ?? TASK_DEFAULT_TIMEOUT_S;
    const run = await workspace.runTask(args.label, timeout * 1000);
    const seconds = (run.durationMs / 1000).toFixed(1);
    const head = run.timedOut
      ? `Task '${args.label}' timed out after ${timeout} s and was stopped (its whole process tree).`
      : run.exitCode === null
        ? `Task '${args.label}' was killed by a signal after ${seconds} s (no exit code).`
        : `Task '${args.label}' finished with exit code ${run.exitCode} after ${seconds} s.`;
    const text = run.output.trimEnd();
    if (text === '') return { ok: run.exitCode === 0, output: `${head}\n(no output)` };
    const cut = text.length > TASK_OUTPUT_MAX_CHARS || run.outputTruncated;
    const tail =
      text.length > TASK_OUTPUT_MAX_CHARS
        ? text.slice(text.indexOf('\n', text.length - TASK_OUTPUT_MAX_CHARS) + 1)
        : text;
    const label = cut ? `--- last ${tail.split('\n').length} lines of output ---` : '--- output ---';
    return { ok: run.exitCode === 0, output: `${head}\n${label}\n${tail}` };
  },
});
