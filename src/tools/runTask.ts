import { z } from 'zod';
import { summarizeArgument } from './callSummary';
import { runReport } from './runReport';
import { defineTool, failure } from './tool';

export const TASK_DEFAULT_TIMEOUT_S = 300;
export const TASK_MAX_TIMEOUT_S = 3600;

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
    return runReport(`Task '${args.label}'`, timeout, run);
  },
});
