// One task over one transport: `loopwire exec --json` (the built CLI, dist/cli/loopwire.js) on a workspace
// copy, approving everything, its sessions kept outside the workspace.
import * as path from 'node:path';
import type { EvalOptions } from './evalArgs';
import { figuresOf, readEvents } from './execFigures';
import type { EvalTask, ExecFigures, Transport } from './evalTypes';
import { runCommand } from './runCommand';

/** The command line of one run (without `node CLI`), as the report may show it. */
export function execArgs(
  task: EvalTask,
  transport: Transport,
  options: EvalOptions,
  workspace: string,
  sessions: string,
) {
  const args = ['exec', '--workspace', workspace, '--transport', transport, '--approve', 'all', '--json'];
  args.push('--max-turns', String(options.maxTurns), '--sessions-dir', sessions);
  if (options.endpoint === undefined) args.push('--scenario', task.solution);
  else args.push('--endpoint', options.endpoint);
  if (options.model !== undefined) args.push('--model', options.model);
  return [...args, ...options.execArgs, task.prompt];
}

/** Runs the task once and reads its figures; a run that outlives its time is stopped and said so. */
export async function runExec(
  task: EvalTask,
  transport: Transport,
  options: EvalOptions,
  workspace: { dir: string; scratch: string },
): Promise<ExecFigures> {
  const args = execArgs(task, transport, options, workspace.dir, path.join(workspace.scratch, 'sessions'));
  const timeoutS = task.timeout_s ?? options.timeoutS;
  const result = await runCommand(process.execPath, [options.cli, ...args], {
    cwd: workspace.dir,
    timeoutMs: timeoutS * 1000,
  });
  const { events, unreadable } = readEvents(result.stdout);
  const figures = figuresOf(events, { exitCode: result.code, processMs: result.ms, stderr: result.stderr });
  if (result.timedOut) return { ...figures, status: 'timed out', reason: `stopped after ${timeoutS} s` };
  if (unreadable.length > 0) figures.missing.push(`${unreadable.length} line(s) that are no event: ${unreadable[0]}`);
  return figures;
}
