// Read-only access to a git directory (a bare mirror is enough): commits, what each changed, blobs and the
// unified diff of one file. Everything goes through the git CLI, with no user or system config, so a
// mirror reads the same on every machine.
import { execFileSync } from 'node:child_process';

/** One file a commit changed, from `git diff --raw -M`. */
export interface RawChange {
  /** A (added), D (deleted), M (modified), R (renamed, maybe modified), T (type changed), C (copied). */
  status: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  oldPath: string;
  newPath: string;
}

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

/** Runs git in `dir`; its stdout as bytes. */
function git(dir: string, args: readonly string[]): Buffer {
  return execFileSync('git', ['--git-dir', dir, '-c', 'core.quotePath=false', ...args], {
    env: ENV,
    maxBuffer: 1 << 30,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The commit `rev` (HEAD unless given) names. */
export function headCommit(dir: string, rev = 'HEAD'): string {
  return git(dir, ['rev-parse', '--verify', `${rev}^{commit}`])
    .toString('utf8')
    .trim();
}

/** The newest `limit` non-merge commits reachable from `rev`, newest first, each with its parent. */
export function recentCommits(
  dir: string,
  limit: number,
  rev = 'HEAD',
): Array<{ commit: string; parent: string | undefined }> {
  const out = git(dir, ['log', '--no-merges', `--max-count=${limit}`, '--format=%H %P', rev]).toString('utf8');
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit = '', parent] = line.split(' ');
      return { commit, parent };
    });
}

/** What `commit` changed against `parent`, renames detected (git's default 50 % similarity). */
export function changesOf(dir: string, parent: string, commit: string): RawChange[] {
  const fields = git(dir, ['diff', '--raw', '-z', '-M', '--no-abbrev', parent, commit]).toString('utf8').split('\0');
  const changes: RawChange[] = [];
  for (let i = 0; i < fields.length - 1;) {
    const meta = (fields[i++] ?? '').replace(/^:/, '').split(' ');
    const [oldMode = '', newMode = '', oldBlob = '', newBlob = '', status = ''] = meta;
    const oldPath = fields[i++] ?? '';
    const twoPaths = status.startsWith('R') || status.startsWith('C');
    const newPath = twoPaths ? (fields[i++] ?? '') : oldPath;
    changes.push({ status: status.charAt(0), oldMode, newMode, oldBlob, newBlob, oldPath, newPath });
  }
  return changes;
}

/** A blob's bytes. */
export function readBlob(dir: string, blob: string): Buffer {
  return git(dir, ['cat-file', 'blob', blob]);
}

/** The `git diff -U3` of one file between two commits (both paths for a rename), as text. */
export function fileDiff(dir: string, parent: string, commit: string, paths: readonly string[]): string {
  return git(dir, [
    'diff',
    '-U3',
    '-M',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--diff-algorithm=myers',
    parent,
    commit,
    '--',
    ...paths,
  ]).toString('utf8');
}
