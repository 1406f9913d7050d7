import { type ChildProcess, type StdioOptions, spawn } from 'node:child_process';
import { confineSpawn } from '../../sandbox';
import type { TaskSpec } from './taskDiscovery';
import { userShell } from './userShell';

// The one place a task's or a command's process is started: the program and its arguments (a shell for a
// shell task, the executable itself for a process task), in its own process group (so that a timeout stops
// everything it started, not only the shell), and, where the task carries a confinement, inside the OS
// sandbox (src/sandbox) — never unconfined when it was meant to be confined: an unavailable sandbox throws.

/** A started task: its process, and what to call once it has exited (the sandbox's mount points go). */
export interface SpawnedTask {
  child: ChildProcess;
  /** What was started: the program the task names, not the sandbox's. */
  program: string;
  cleanup(): void;
  /** What the sandbox changed for this run (a folder it had to make read-only, and why): said before the output. */
  warnings: readonly string[];
}

/** Starts `task` with `stdio`. Throws where its confinement cannot be had. */
export function spawnTask(task: TaskSpec, stdio: StdioOptions): SpawnedTask {
  const [file, args] =
    task.run.kind === 'process'
      ? [task.run.file, task.run.args]
      : // A shell task that names no shell runs in the user's, as VS Code runs it in the default one.
        [task.run.shell ?? userShell().shell, [...(task.run.shellArgs ?? userShell().shellArgs), task.run.line]];
  const env = { ...process.env, ...task.env };
  // Debian's bash reads ~/.bashrc when its standard input is a socket (Node's pipes are) and it believes it
  // is the first shell (SHLVL unset or 0, as under a service or a desktop launcher): seconds per command
  // where the rc starts pyenv or nvm. One level up, as in the user's own terminal, it does not.
  if (!env['SHLVL'] || env['SHLVL'] === '0') env['SHLVL'] = '1';
  const confined = task.confinement
    ? confineSpawn({ file, args, cwd: task.cwd, env }, task.confinement)
    : { file, args, env, cleanup: () => undefined, warnings: [] as string[] };
  const child = spawn(confined.file, confined.args, {
    cwd: task.cwd,
    env: confined.env,
    stdio,
    detached: process.platform !== 'win32',
  });
  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    confined.cleanup();
  };
  // A spawn that failed ('error') may never 'close'; the mount points go either way.
  child.once('close', cleanup);
  child.once('error', cleanup);
  return { child, program: file, cleanup, warnings: confined.warnings ?? [] };
}
