import * as fs from 'node:fs';
import { applyPatchTo, gitSaid, patchHash, snapshotTree, treeDiff } from './worktreeChanges';
import { WorktreeError } from './worktreeError';
import { filterOverrides, runGit } from './worktreeGit';
import { repositoryOf } from './worktreePaths';
import { type WorktreeRecord, baseRef, listRecords, readRecord, removeRecord, writeRecord } from './worktreeStore';

// What the user does with a worktree once its task has run: see its changes against its base, apply them to
// their own working tree, or discard it (worktree, branch and record). A worktree whose folder has gone is
// said to be gone, never a crash: it can still be discarded (git worktree prune forgets it).

export interface WorktreeChanges {
  patch: string;
  files: string[];
  /** The tree of the worktree's files as they were measured (what worktreeFiles lists without taking it again). */
  tree: string;
}

export interface WorktreeStatus {
  record: WorktreeRecord;
  /** The folder is no longer there (removed by hand): nothing to show or apply. */
  gone: boolean;
  /** Paths changed against the base (empty when gone). */
  files: string[];
  /** Changes that have not reached the workspace through Apply. */
  unapplied: boolean;
  /** Files git calls modified or untracked in the worktree (its own `git status`). */
  uncommitted: number;
  /** The tree its changes were measured on (absent when gone). */
  tree?: string;
}

/** The worktree's changes against its base: commits, uncommitted edits and new files not ignored. */
export async function worktreeChanges(record: WorktreeRecord): Promise<WorktreeChanges> {
  if (!fs.existsSync(record.path))
    throw new WorktreeError('gone', `The folder of worktree "${record.name}" (${record.path}) has gone.`);
  const tree = await snapshotTree(record.path, record.base);
  return { ...(await treeDiff(record.path, record.base, tree)), tree };
}

/** The state of one worktree, as list and discard need it. */
export async function worktreeStatus(record: WorktreeRecord): Promise<WorktreeStatus> {
  if (!fs.existsSync(record.path)) {
    // Its files went with the folder; what its branch holds beyond its first commit is still there to lose.
    const tip = await runGit(record.gitDir, ['rev-parse', '--verify', '--quiet', `refs/heads/${record.branch}`]);
    const unapplied = tip.code === 0 && tip.stdout.trim() !== record.head;
    return { record, gone: true, files: [], unapplied, uncommitted: 0 };
  }
  const { patch, files, tree } = await worktreeChanges(record);
  const status = await runGit(record.path, ['status', '--porcelain', '-z', '--untracked-files=all'], {
    filters: await filterOverrides(record.path),
  });
  const uncommitted = status.stdout.split('\0').filter((entry) => /^.. /.test(entry)).length;
  return {
    record,
    gone: false,
    files,
    unapplied: files.length > 0 && record.applied !== patchHash(patch),
    uncommitted,
    tree,
  };
}

/** Every worktree Loopwire made in the repository of `folder`, with its state. */
export async function listWorktrees(folder: string): Promise<WorktreeStatus[]> {
  const repo = await repositoryOf(folder);
  return Promise.all(listRecords(repo.commonDir).map((record) => worktreeStatus(record)));
}

/** The record of worktree `name` of the repository of `folder`. */
export async function findWorktree(folder: string, name: string): Promise<WorktreeRecord> {
  const repo = await repositoryOf(folder);
  return readRecord(repo.commonDir, name);
}

/**
 * Applies the worktree's changes to the user's working tree (the main checkout of its repository), all or
 * nothing (worktreeChanges.ts): on a conflict nothing is changed. Returns the paths it changed.
 */
export async function applyWorktree(folder: string, name: string): Promise<string[]> {
  const repo = await repositoryOf(folder);
  const record = readRecord(repo.commonDir, name);
  const { patch, files } = await worktreeChanges(record);
  const top = await mainCheckout(repo.top);
  await applyPatchTo(top, patch, `The changes of worktree "${name}"`);
  writeRecord(repo.commonDir, { ...record, applied: patchHash(patch) });
  return files;
}

/** The main working tree of the repository: the first `worktree` line of `git worktree list --porcelain`. */
async function mainCheckout(top: string): Promise<string> {
  const listed = await runGit(top, ['worktree', 'list', '--porcelain']);
  const first = /^worktree (.+)$/m.exec(listed.stdout)?.[1];
  return first ?? top;
}

/**
 * Removes the worktree, its branch and its record. Refused, with nothing removed, where it holds changes not
 * applied (commits or files), unless `force`. A worktree whose folder has gone is pruned.
 */
export async function discardWorktree(folder: string, name: string, force = false): Promise<WorktreeStatus> {
  const repo = await repositoryOf(folder);
  const status = await worktreeStatus(readRecord(repo.commonDir, name));
  const { record } = status;
  if (!force && status.unapplied)
    throw new WorktreeError(
      'unapplied',
      `Worktree "${name}" has changes not applied to the workspace (${status.files.length} ` +
        `${status.files.length === 1 ? 'file' : 'files'}, ${status.uncommitted} uncommitted): ` +
        'apply them first, or discard with --force to lose them.',
    );
  // git runs in the main checkout: asked from inside the worktree (its own window), the folder goes first.
  const top = await mainCheckout(repo.top);
  if (status.gone) await runGit(top, ['worktree', 'prune']);
  else {
    const filters = await filterOverrides(top);
    const removed = await runGit(top, ['worktree', 'remove', '--force', '--', record.path], { filters });
    if (removed.code !== 0)
      throw new WorktreeError('git_failed', `git worktree remove failed: ${gitSaid(removed.stderr)}`);
  }
  // The branch may be gone already (deleted by hand): that is what discard wants.
  await runGit(top, ['branch', '-D', '--', record.branch]);
  await runGit(top, ['update-ref', '-d', baseRef(name)]);
  removeRecord(repo.commonDir, name);
  return status;
}
