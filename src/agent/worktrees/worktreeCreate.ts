import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyPatchTo, gitSaid, snapshotTree, treeDiff } from './worktreeChanges';
import { WorktreeError } from './worktreeError';
import { filterOverrides, runGit } from './worktreeGit';
import { BRANCH_PREFIX, checkName, defaultWorktreePath, isInside, repositoryOf } from './worktreePaths';
import { type WorktreeRecord, baseRef, listRecords, writeRecord } from './worktreeStore';

// `git worktree add -b loopwire/NAME PATH HEAD`, outside the workspace folder, with the user's uncommitted
// changes carried over when asked: their working tree is read (through a temporary index), never written.

export interface CreateWorktree {
  /** Any folder of the user's repository (the workspace folder). */
  folder: string;
  name: string;
  /** Where the worktree goes; default `$XDG_STATE_HOME/loopwire/worktrees/REPO-NAME`. */
  path?: string | undefined;
  /** Carry the user's uncommitted changes (staged, unstaged, untracked and not ignored) into it. */
  carry?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
}

/** Makes the worktree; refuses, having changed nothing, a bad name or a branch or folder that exists. */
export async function createWorktree(request: CreateWorktree): Promise<WorktreeRecord> {
  const repo = await repositoryOf(request.folder);
  const { name } = request;
  await checkName(repo.top, name);
  const branch = `${BRANCH_PREFIX}${name}`;
  const where = path.resolve(request.path ?? defaultWorktreePath(repo.top, name, request.env));
  await refuseTaken(repo.top, repo.commonDir, { name, branch, where });
  const headRun = await runGit(repo.top, ['rev-parse', '--verify', 'HEAD^{commit}']);
  if (headRun.code !== 0)
    throw new WorktreeError('git_failed', `${repo.top} has no commit yet: a worktree starts from HEAD's commit.`);
  const head = headRun.stdout.trim();
  // Read before anything is made: a carry that fails leaves no worktree behind.
  const carried = request.carry ? await snapshotTree(repo.top, head) : undefined;
  fs.mkdirSync(path.dirname(where), { recursive: true });
  // Checkout runs the smudge filters the config names: turned off (worktreeGit.ts), as are the hooks.
  const filters = await filterOverrides(repo.top);
  const added = await runGit(repo.top, ['worktree', 'add', '-b', branch, '--', where, head], { filters });
  if (added.code !== 0) throw new WorktreeError('git_failed', `git worktree add failed: ${gitSaid(added.stderr)}`);
  const gitDir = (await runGit(where, ['rev-parse', '--absolute-git-dir'])).stdout.trim();
  const headTree = (await runGit(repo.top, ['rev-parse', `${head}^{tree}`])).stdout.trim();
  if (carried !== undefined && carried !== headTree) {
    const { patch } = await treeDiff(repo.top, headTree, carried);
    await applyPatchTo(where, patch, 'Your uncommitted changes');
  }
  const base = carried ?? headTree;
  await runGit(repo.top, ['update-ref', baseRef(name), base]);
  const record: WorktreeRecord = {
    name,
    branch,
    path: where,
    gitDir,
    base,
    head,
    carried: carried !== undefined,
    created: new Date().toISOString(),
  };
  writeRecord(repo.commonDir, record);
  return record;
}

async function refuseTaken(
  top: string,
  commonDir: string,
  wanted: { name: string; branch: string; where: string },
): Promise<void> {
  const { name, branch, where } = wanted;
  if (isInside(where, top) || isInside(fs.realpathSync(path.dirname(existingParent(where))), top))
    throw new WorktreeError('invalid_name', `${where} is inside the workspace ${top}: a worktree goes outside it.`);
  if (listRecords(commonDir).some((r) => r.name === name))
    throw new WorktreeError(
      'exists',
      `A worktree named "${name}" exists already: apply or discard it, or pick another name.`,
    );
  const branchRun = await runGit(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  if (branchRun.code === 0)
    throw new WorktreeError('exists', `The branch ${branch} exists already: delete it or pick another name.`);
  if (fs.existsSync(where))
    throw new WorktreeError('exists', `${where} exists already: remove it or pick another name.`);
}

/** `p` or its nearest parent that exists (whose real path says where `p` would really be). */
function existingParent(p: string): string {
  let current = p;
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return path.join(current, 'x');
}
