import { execFile } from 'node:child_process';
import * as fs from 'node:fs/promises';

// Whether a process still runs, for the tests that check a stopped command left nothing behind. A zombie
// (ended, waiting for its parent to reap it) does not run: it is reported as gone. Linux answers from
// /proc; elsewhere (macOS has no /proc) `ps` says the process's state, so the check never passes by
// finding nothing to read.

/** Whether `pid` is a running process (not a zombie). */
export async function alive(pid: number): Promise<boolean> {
  if (!signalable(pid)) return false;
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat !== undefined) return !/^\d+ \(.*\) Z/.test(stat);
  const state = await psState(pid);
  // Signalable but neither /proc nor ps could say: count it as running rather than let a test pass blind.
  return state === undefined || !state.startsWith('Z');
}

/** Whether a process with `pid` exists (a zombie included); EPERM means it exists as another user's. */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `ps`'s state letters for `pid` (`S`, `R+`, `Z`…), or undefined where ps is missing or knows no such pid. */
function psState(pid: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('ps', ['-o', 'stat=', '-p', String(pid)], (error, stdout) => {
      const state = stdout.trim();
      resolve(error || state === '' ? undefined : state);
    });
  });
}
