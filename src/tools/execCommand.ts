import { z } from 'zod';
import { stringArgument } from './callSummary';
import { timedRun, timeoutArgument } from './runReport';
import { defineTool, failure } from './tool';

// A shell command, as Codex's `exec_command` (the names are a contract: GPT models are trained on them). It
// runs in the user's shell in a workspace folder, where the user can see it (VS Code: a terminal named
// Loopwire), with nothing on its standard input; it is a `task` for approvals, so `ask` shows the exact
// command first and `read-only` refuses it.

export const ExecCommandArgs = z.object({
  cmd: z.string().min(1).describe('The command line, run by the user\'s shell (e.g. "npm test -- --grep cart").'),
  workdir: z
    .string()
    .optional()
    .describe('The folder to run it in, relative to the workspace root (default: the root).'),
  timeout_s: timeoutArgument('command'),
});

export const execCommandTool = defineTool({
  name: 'exec_command',
  description:
    "Run a shell command in the workspace and return its exit code and the end of its output. It gets no input (stdin is empty): pass everything on the command line. A command that runs past timeout_s is stopped with everything it started. Prefer the workspace's tasks (run_task) when one does the job.",
  args: ExecCommandArgs,
  effect: 'task',
  requires: 'commands',
  outputShape: 'tail',
  summarize: (input) => stringArgument(input, 'cmd', { open: true }) ?? '',
  approval(input) {
    const cmd = stringArgument(input, 'cmd');
    if (cmd === undefined) return undefined;
    const workdir = stringArgument(input, 'workdir') || 'the workspace root';
    return { action: 'Run command', object: cmd, detail: `$ ${cmd}\n(in ${workdir})` };
  },
  async run(args, { workspace }) {
    if (workspace.capabilities.commands === false)
      return failure('Shell commands are not available in this workspace.');
    return timedRun('The command', args.timeout_s, (timeoutMs) =>
      workspace.runCommand(args.cmd, { workdir: args.workdir, timeoutMs }),
    );
  },
});
