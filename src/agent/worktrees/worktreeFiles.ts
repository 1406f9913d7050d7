import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitSaid, snapshotTree } from './worktreeChanges';
import { WorktreeError } from './worktreeError';
import { runGit } from './worktreeGit';
import { isInside } from './worktreePaths';
import type { WorktreeRecord } from './worktreeStore';

// A worktree's changes file by file, as the chat's worktree card lists them (+/- counts, added or deleted),
// and a changed file's text at the base, for the left side of the diff editor. Git runs through the hardened
// runner (worktreeGit.ts) and diffs tree against tree, as worktreeChanges.ts does: no filter, no textconv.

export interface WorktreeFileChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
  added: number;
  removed: number;
  binary: boolean;
}

/** The most bytes of a base file handed to the diff editor. */
const MAX_BASE_BYTES = 8 * 1024 * 1024;

const DIFF_OPTIONS = ['--no-ext-diff', '--no-textconv', '--no-renames', '--no-color', '-z'];

async function git(cwd: string, args: string[]): Promise<string> {
  const run = await runGit(cwd, args);
  if (run.code !== 0) throw new WorktreeError('git_failed', `git ${args[0]} failed in ${cwd}: ${gitSaid(run.stderr)}`);
  return run.stdout;
}

/**
 * Each file the worktree changed against its base, in git's order, with its line counts; `tree`: the snapshot
 * of its files already taken (worktreeStatus's), else one is taken here (a `git add` of the whole worktree).
 */
export async function worktreeFiles(record: WorktreeRecord, tree?: string): Promise<WorktreeFileChange[]> {
  if (!fs.existsSync(record.path))
    throw new WorktreeError('gone', `The folder of worktree "${record.name}" (${record.path}) has gone.`);
  const now = tree ?? (await snapshotTree(record.path, record.base));
  const kinds = new Map<string, WorktreeFileChange['change']>();
  const status = (await git(record.path, ['diff', '--name-status', ...DIFF_OPTIONS, record.base, now, '--'])).split(
    '\0',
  );
  for (let i = 0; i + 1 < status.length; i += 2) {
    const letter = status[i] ?? '';
    kinds.set(status[i + 1] ?? '', letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified');
  }
  const numstat = await git(record.path, ['diff', '--numstat', ...DIFF_OPTIONS, record.base, now, '--']);
  return numstat
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const [added = '-', removed = '-', ...rest] = line.split('\t');
      const file = rest.join('\t');
      const binary = added === '-' || removed === '-';
      return {
        path: file,
        change: kinds.get(file) ?? 'modified',
        added: binary ? 0 : Number(added),
        removed: binary ? 0 : Number(removed),
        binary,
      };
    });
}

/**
 * The text of `file` (a path the worktree changed, relative to its top) at the worktree's base: empty where
 * the worktree added it. Refused for a path that leaves the worktree or a file past 8 MiB.
 */
export async function worktreeBaseText(record: WorktreeRecord, file: string): Promise<string> {
  if (path.isAbsolute(file) || !isInside(path.resolve(record.path, file), record.path) || file.includes('\0'))
    throw new WorktreeError('not_found', `${file} is not a path of worktree "${record.name}".`);
  const cwd = fs.existsSync(record.path) ? record.path : record.gitDir;
  const spec = `${record.base}:${file}`;
  const size = await runGit(cwd, ['cat-file', '-s', spec]);
  if (size.code !== 0) return '';
  if (Number(size.stdout.trim()) > MAX_BASE_BYTES)
    throw new WorktreeError('git_failed', `${file} is larger than 8 MiB at the base: open it with git instead.`);
  return git(cwd, ['cat-file', 'blob', spec]);
}
