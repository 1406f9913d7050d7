// `loopwire exec --worktree NAME`: the task runs in a git worktree of its own (docs/worktrees.md), made here
// before the workspace is opened: its path and branch said first (stderr, and a `worktree` event with --json),
// the setup command run in it, and the workspace opened on it with its sandbox (src/agent/worktrees).
import * as path from 'node:path';
import { type WorktreeRecord, createWorktree, worktreeConfinement } from '../../agent/worktrees';
import { NodeWorkspace } from '../../workspace/node/nodeWorkspace';
import { type CliIo, errorMessage } from '../cliIo';
import { t } from '../cliL10n';
import type { ExecOptions } from './execOptions';

/** How long a setup command may run: a dependency install on a slow network. */
const SETUP_TIMEOUT_MS = 30 * 60_000;

/**
 * Makes the worktree of --worktree, says where it is, runs the setup command, and opens the workspace on it;
 * an error's text where any of that fails (a worktree made before a failed setup is kept, and said).
 */
export async function openWorktree(options: ExecOptions, io: CliIo): Promise<NodeWorkspace | string> {
  const { flags } = options;
  const name = flags.worktree ?? '';
  let record: WorktreeRecord;
  try {
    record = await createWorktree({
      folder: path.resolve(flags.workspace ?? '.'),
      name,
      carry: flags['worktree-carry'],
    });
  } catch (error) {
    return `--worktree: ${errorMessage(error)}`;
  }
  const { path: where, branch } = record;
  io.stderr(`${t('(worktree {0} on branch {1})', where, branch)}\n`);
  if (flags.json) io.stdout(`${JSON.stringify({ type: 'worktree', name, path: where, branch, base: record.head })}\n`);
  const workspace = await NodeWorkspace.open(where, { confinement: worktreeConfinement(record) });
  const setup = flags['worktree-setup'];
  if (setup !== undefined) {
    const failed = await runSetup(workspace, setup, options, io);
    if (failed !== undefined) return `${failed} ${t('(the worktree stays: loopwire worktree discard {0})', name)}`;
  }
  return workspace;
}

/** The setup command, a program the user chose: workspace-write with the network on where commands are confined. */
async function runSetup(workspace: NodeWorkspace, line: string, options: ExecOptions, io: CliIo) {
  const confined = options.sandbox.support.available;
  io.stderr(`${t('(setup: {0})', line)}\n`);
  const policy = { mode: 'workspace-write', network: true } as const;
  try {
    const run = await workspace.runCommand(line, {
      timeoutMs: SETUP_TIMEOUT_MS,
      ...(confined ? { sandbox: { policy } } : {}),
    });
    if (run.output !== '') io.stderr(run.output.endsWith('\n') ? run.output : `${run.output}\n`);
    if (run.exitCode === 0) return undefined;
    return run.timedOut
      ? t('the setup command timed out.')
      : t('the setup command failed (exit {0}).', String(run.exitCode));
  } catch (error) {
    return t('the setup command could not run: {0}', errorMessage(error));
  }
}
