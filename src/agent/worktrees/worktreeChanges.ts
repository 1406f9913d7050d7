import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorktreeError } from './worktreeError';
import { filterOverrides, runGit } from './worktreeGit';

// A working folder's content as a git tree, and the changes between two trees as a patch. The tree is
// written through a temporary index, so neither the user's index nor the worktree's is touched, and the diff
// is tree against tree: no working-tree file is read through a filter or a textconv, nothing is merged.

/** git's failure as a sentence: its first lines of stderr. */
export function gitSaid(stderr: string): string {
  const lines = stderr.trim().split('\n').slice(0, 6).join('; ');
  return lines === '' ? 'git gave no reason' : lines;
}

async function git(cwd: string, args: string[], options: Parameters<typeof runGit>[2] = {}): Promise<string> {
  const run = await runGit(cwd, args, options);
  if (run.code !== 0) throw new WorktreeError('git_failed', `git ${args[0]} failed in ${cwd}: ${gitSaid(run.stderr)}`);
  return run.stdout;
}

/**
 * The tree of what is in `folder` now, measured from `from` (a tree or commit): its files, changed or new,
 * that .gitignore does not exclude; those it deletes are gone from the tree. The real index lends its stat
 * cache (read-tree -m keeps it for unchanged entries), so a large unchanged tree is not hashed again.
 */
export async function snapshotTree(folder: string, from: string): Promise<string> {
  const gitDir = (await git(folder, ['rev-parse', '--absolute-git-dir'])).trim();
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-worktree-index-'));
  const index = path.join(temp, 'index');
  const env = { GIT_INDEX_FILE: index };
  const filters = await filterOverrides(folder);
  try {
    const real = path.join(gitDir, 'index');
    if (fs.existsSync(real)) fs.copyFileSync(real, index);
    // Each of these may compare a file with the index (racy entries), which runs the clean filter: off.
    const merged = await runGit(folder, ['read-tree', '-m', from], { env, filters });
    if (merged.code !== 0) await git(folder, ['read-tree', from], { env, filters });
    await git(folder, ['add', '-A', '--', '.'], { env, filters });
    return (await git(folder, ['write-tree'], { env, filters })).trim();
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** The changes from tree `from` to tree `to` as a binary patch git apply takes, and the paths they touch. */
export async function treeDiff(cwd: string, from: string, to: string): Promise<{ patch: string; files: string[] }> {
  const options = ['--no-ext-diff', '--no-textconv', '--no-renames', '--no-color'];
  const patch = await git(cwd, ['diff', '--binary', '--full-index', ...options, from, to, '--']);
  const names = await git(cwd, ['diff', '--name-only', '-z', ...options, from, to, '--']);
  return { patch, files: names.split('\0').filter(Boolean) };
}

/** The patch's fingerprint: what Apply remembers, so that changes applied are not called unapplied. */
export function patchHash(patch: string): string {
  return createHash('sha256').update(patch).digest('hex');
}

/**
 * Applies `patch` to the working tree at `top` (not its index), all or nothing: `git apply --check` first, so
 * that a patch that does not fit changes no file; the conflict is said with the paths git names.
 */
export async function applyPatchTo(top: string, patch: string, what: string): Promise<void> {
  if (patch.trim() === '') return;
  const filters = await filterOverrides(top);
  const check = await runGit(top, ['apply', '--check', '--binary', '-'], { input: patch, filters });
  if (check.code !== 0)
    throw new WorktreeError(
      'conflict',
      `${what} does not apply cleanly to ${top}, so nothing was changed there: ${gitSaid(check.stderr)}. ` +
        'Commit, stash or undo your changes to those files, then apply again.',
    );
  const applied = await runGit(top, ['apply', '--binary', '-'], { input: patch, filters });
  if (applied.code !== 0)
    throw new WorktreeError(
      'git_failed',
      `git apply failed in ${top} after its check passed: ${gitSaid(applied.stderr)}`,
    );
}
