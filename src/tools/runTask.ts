import { t } from '@vscode/l10n';
import { z } from 'zod';
import { summarizeArgument } from './callSummary';
import { timedRun, timeoutArgument } from './runReport';
import { defineTool } from './tool';
import { refusal } from './toolErrors';

export const RunTaskArgs = z.object({
  label: z.string().min(1).describe('The task\'s label, as list_tasks shows it (e.g. "npm: test").'),
  timeout_s: timeoutArgument('task'),
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
  async run(args, { workspace, outputTokens, sandbox }) {
    if (!workspace.capabilities.tasks)
      return refusal('Tasks are not available in this workspace.', () =>
        t('Tasks are not available in this workspace.'),
      );
    const what = `Task '${args.label}'`;
    const options = { sandbox: sandbox && { policy: sandbox } };
    return timedRun(
      what,
      args.timeout_s,
      (timeoutMs) => workspace.runTask(args.label, timeoutMs, options),
      outputTokens,
    );
  },
});
