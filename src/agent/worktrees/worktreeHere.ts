import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from './worktreeGit';
import { isInside, repositoryOf } from './worktreePaths';
import { type WorktreeRecord, listRecords } from './worktreeStore';

// Whether a folder opened by itself (a VS Code window opened on a worktree, by Open in New Window or the
// composer's "In a new worktree") is one Loopwire made, so that its chat's commands get the same sandbox as
// `loopwire exec --worktree`: the worktree's own `.git/worktrees/ID` writable, `commondir`, `gitdir` and
// `config.worktree` kept read only (worktreeSandbox.ts). Without it git's index there is read only, and
// `git add` in the worktree window fails.
// A record only widens what a command may write, so it is believed only where git agrees with it: the folder
// is the record's worktree (real paths), git's own git folder for it is the record's `gitDir`, that folder is
// `worktrees/ID` of the repository's common git folder, and neither lies inside the worktree (where a task, or
// the archive the folder came from, could have made a repository of its own to be trusted).

/** The record of the Loopwire worktree `folder` is, where git confirms it; undefined for any other folder. */
export async function worktreeAt(folder: string): Promise<WorktreeRecord | undefined> {
  const here = realPath(folder);
  // A linked worktree's root holds a `.git` file, not a folder: every other window is told without running git.
  if (here === undefined || !isFile(path.join(here, '.git'))) return undefined;
  const repo = await repositoryOf(here).catch(() => undefined);
  if (repo === undefined) return undefined;
  const common = realPath(repo.commonDir);
  const record = listRecords(repo.commonDir).find((candidate) => realPath(candidate.path) === here);
  if (record === undefined || common === undefined) return undefined;
  const asked = await runGit(here, ['rev-parse', '--absolute-git-dir']);
  const gitDir = asked.code === 0 ? realPath(asked.stdout.trim()) : undefined;
  const confirmed =
    gitDir !== undefined &&
    gitDir === realPath(record.gitDir) &&
    path.dirname(gitDir) === path.join(common, 'worktrees') &&
    !isInside(gitDir, here) &&
    !isInside(common, here);
  return confirmed ? record : undefined;
}

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}
