import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Confinement } from '../../sandbox';
import { isInside, stateFolder, worktreesFolder } from './worktreePaths';
import type { WorktreeRecord } from './worktreeStore';

// What the sandbox of a task in a worktree may write besides the worktree (its root): the worktree's own git
// folder, `.git/worktrees/ID` (its index and HEAD: git status, add -N, restore, checkout of a file work
// there), with `commondir`, `gitdir` and `config.worktree` kept read only, since they say which repository's
// config and hooks git reads in that worktree, and a command rewriting them would have the user's next git
// there run its program. Not the objects nor the refs, which the worktree shares with the user's checkout: a
// writable object folder would let a command rewrite an object of the user's history (git does not check a
// loose object against its name when it reads it), writable refs any branch. So a `git commit` inside the
// sandbox fails, as it does in the user's own checkout (whose .git is read only); the task's changes stay in
// the worktree's files, which is what Apply takes (its changes against its base, committed or not).
// The default worktrees live under Loopwire's state folder, which every sandbox hides; a worktree root there
// shows that folder again (hiddenMounts), so its other entries (sessions, the other worktrees) are hidden by
// name here.

/** The files of the worktree's git folder kept read only (made, empty, where git made none). */
const KEPT = ['commondir', 'gitdir', 'config.worktree'];

/** The confinement's parts for a task in the worktree of `record` (its root is the worktree). */
export function worktreeConfinement(record: WorktreeRecord, env: NodeJS.ProcessEnv = process.env): WorktreeExtras {
  const kept = KEPT.map((file) => path.join(record.gitDir, file));
  // config.worktree is read only with extensions.worktreeConfig on; made empty so that a mount can hold it.
  const worktreeConfig = path.join(record.gitDir, 'config.worktree');
  // Made only where nothing is, a link included ('wx' neither follows one nor replaces it): a git folder that
  // is not ours (a window's folder whose record git confirms, worktreeHere.ts) may hold a dangling link there,
  // and following it would make a file wherever it points.
  if (fs.existsSync(record.gitDir)) {
    try {
      fs.writeFileSync(worktreeConfig, '', { flag: 'wx' });
    } catch {
      // There already (a file, or a link: keptReadOnly leaves a link out).
    }
  }
  // The repository's common git folder (objects, refs, config), read: shown again where the private /tmp
  // would hide it (a repository under /tmp).
  const commonDir = path.dirname(path.dirname(record.gitDir));
  const hidden = stateSiblings(record.path, env);
  return { writable: [record.gitDir], keptReadOnly: kept, readable: [commonDir], hidden };
}

export type WorktreeExtras = Required<Pick<Confinement, 'writable' | 'keptReadOnly' | 'readable' | 'hidden'>>;

/** The entries of Loopwire's state folder and of its worktrees folder that do not hold `worktree`. */
function stateSiblings(worktree: string, env: NodeJS.ProcessEnv): string[] {
  const state = stateFolder(env);
  if (!isInside(worktree, state)) return [];
  const list = (folder: string) => {
    try {
      return fs.readdirSync(folder).map((entry) => path.join(folder, entry));
    } catch {
      return [];
    }
  };
  const worktrees = worktreesFolder(env);
  return [...list(state), ...list(worktrees)].filter((entry) => !isInside(worktree, entry) && entry !== worktrees);
}
