import * as fs from 'node:fs';

// The empty folders made on the host for a run to mount on (a missing `.vscode` kept read-only), counted:
// two commands confined at once in the same workspace share a mount point, and the folder goes only when
// the last of them has ended — removed earlier, the other command's mount would go with it and the path
// would be writable again. Only an empty folder is removed: whatever the user put there meanwhile stays.
// The last user's end does not remove it at once: an agent runs commands in bursts, and making and removing
// seven folders cost every command 13–15 ms (docs/benchmark.md), on the path between a command's end and
// its result. A folder nobody uses goes after LINGER_MS, off that path, or when the process exits.

const users = new Map<string, number>();
/** Folders no run uses now, each with the timer that removes it. */
const lingering = new Map<string, NodeJS.Timeout>();
const LINGER_MS = 3000;

function remove(p: string): void {
  lingering.delete(p);
  try {
    fs.rmdirSync(p);
  } catch {
    // Not empty (something was put there from outside the sandbox), or already gone: leave it.
  }
}

let exitHooked = false;
/** Whatever still lingers goes with the process (its exit, or a stop by a signal the CLI turns into one). */
function removeAtExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', removeLingeringMountPoints);
}

/**
 * Makes the folder `p`; false where this user may not (a workspace it cannot write, a read-only disk, a
 * parent that could not be made): the command, as this user without any capability, could not either.
 */
function makeFolder(p: string): boolean {
  try {
    fs.mkdirSync(p);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR'].includes(code)) return false;
    throw error;
  }
}

/**
 * Makes each of `paths` (parents first) that does not exist, and takes a share of each that is already one
 * of ours. Returns what to give back to `releaseMountPoints` once the run has ended.
 */
export function claimMountPoints(paths: readonly string[]): string[] {
  const claimed: string[] = [];
  try {
    for (const p of paths) {
      const waiting = lingering.get(p);
      if (waiting !== undefined) {
        // Ours still, and unused: taken again rather than removed and made anew.
        clearTimeout(waiting);
        lingering.delete(p);
        users.set(p, 1);
        claimed.push(p);
        continue;
      }
      const count = users.get(p);
      if (count !== undefined) {
        users.set(p, count + 1);
      } else if (fs.existsSync(p)) {
        // The user's own folder (made since the plan was drawn): not ours to remove.
        continue;
      } else if (makeFolder(p)) {
        users.set(p, 1);
      } else {
        continue;
      }
      claimed.push(p);
    }
  } catch (error) {
    releaseMountPoints(claimed);
    throw error;
  }
  return claimed;
}

/** Gives back what `claimMountPoints` returned: the last user of a folder removes it, if it is still empty. */
export function releaseMountPoints(claimed: readonly string[]): void {
  for (const p of [...claimed].reverse()) {
    const count = (users.get(p) ?? 1) - 1;
    if (count > 0) {
      users.set(p, count);
      continue;
    }
    users.delete(p);
    removeAtExit();
    lingering.set(p, setTimeout(() => remove(p), LINGER_MS).unref());
  }
}

/** Removes at once every folder that lingers (tests, and a host that closes its workspace). */
export function removeLingeringMountPoints(): void {
  // Deepest first: `.github/hooks` before the `.github` made for it.
  for (const [p, timer] of [...lingering].sort(([a], [b]) => b.length - a.length)) {
    clearTimeout(timer);
    remove(p);
  }
}
