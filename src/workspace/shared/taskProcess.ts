import type { TaskRun } from '../workspace';
import { OutputTail, finishedRun } from './outputTail';
import type { TaskSpec } from './taskDiscovery';
import { type SpawnedTask, spawnTask } from './taskSpawn';

// Runs one task as VS Code would (a shell for shell tasks, the executable itself for process tasks) in its
// own process group, so that a timeout stops everything it started, not only the shell.

/** After SIGTERM, how long a process tree gets to exit before SIGKILL. */
export const KILL_GRACE_MS = 2000;

export function killTree(pid: number, signal: NodeJS.Signals): void {
  try {
    // A negative pid signals the whole process group (POSIX); Windows has no groups, only the process.
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs `task`; `onOutput` sees what it prints as it prints it (a terminal that shows the run live). */
export function runTaskProcess(
  task: TaskSpec,
  timeoutMs: number,
  onOutput?: (chunk: Buffer) => void,
): Promise<TaskRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    const tail = new OutputTail();
    let spawned: SpawnedTask;
    try {
      spawned = spawnTask(task, ['ignore', 'pipe', 'pipe']);
    } catch (error) {
      // The sandbox it was to run in is not here: it does not run at all.
      tail.push(Buffer.from(`${error instanceof Error ? error.message : String(error)}\n`));
      resolve(finishedRun(tail, null, false, started));
      return;
    }
    const { child, program: file } = spawned;
    for (const warning of spawned.warnings) tail.push(Buffer.from(`(sandbox) ${warning}\n`));
    let timedOut = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (exitCode: number | null, failure?: string) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      // Whatever of a stopped task's tree outlived SIGTERM goes now.
      if (timedOut && child.pid !== undefined) killTree(child.pid, 'SIGKILL');
      // A background process the task left behind may hold the pipes open; the task itself is over.
      child.stdout?.destroy();
      child.stderr?.destroy();
      if (failure !== undefined) tail.push(Buffer.from(failure));
      resolve(finishedRun(tail, exitCode, timedOut, started));
    };
    const take = (chunk: Buffer) => {
      tail.push(chunk);
      onOutput?.(chunk);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('error', (error) => finish(null, `could not start ${file}: ${error.message}\n`));
    child.on('exit', (code) => {
      // Let the pipes drain what was already written, briefly.
      const drain = setTimeout(() => finish(timedOut ? null : code), 100);
      child.on('close', () => {
        clearTimeout(drain);
        finish(timedOut ? null : code);
      });
    });
    timers.push(
      setTimeout(() => {
        timedOut = true;
        if (child.pid === undefined) return;
        killTree(child.pid, 'SIGTERM');
        timers.push(setTimeout(() => child.pid !== undefined && killTree(child.pid, 'SIGKILL'), KILL_GRACE_MS));
      }, timeoutMs),
    );
  });
}
