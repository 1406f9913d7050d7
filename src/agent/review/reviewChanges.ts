import { lstat, open } from 'node:fs/promises';
import * as path from 'node:path';
import { type ReviewGit, ReviewGitError, commitOf } from './reviewGit';
import { type ReviewTarget, targetTitle } from './reviewTarget';

// The changes under review as git gives them: the log of a range, and the diff, file by file. What the first
// request carries is cut to a size (REVIEW_DIFF_CAP): whole files' diffs in git's order while they fit, the
// rest named with the command that shows each, for the model to read. An untracked file of the working tree
// is shown as git would show it added (its text, as `+` lines), since `git diff HEAD` leaves it out.

/** The diff text a first request carries at most, in characters (about 20,000 tokens). */
export const REVIEW_DIFF_CAP = 80_000;
/** The log of a range it carries at most. */
const LOG_CAP = 16_000;
/** An untracked file larger than this, or one holding a NUL byte, is named, not shown. */
const UNTRACKED_MAX_BYTES = 64 * 1024;
/** Git's empty tree: the base of a repository that has no commit yet. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const DIFF_OPTIONS = ['--no-ext-diff', '--no-textconv', '--no-color', '--find-renames'];

/** One file's diff: its path (the new side's), and its text from `diff --git` on. */
export interface FileDiff {
  file: string;
  text: string;
}

export interface ReviewChanges {
  target: ReviewTarget;
  /** What is under review, in a phrase. */
  title: string;
  /** The git command whose output the diff is (and with which the model reads a file left out). */
  diffCommand: string;
  /** A range's log, cut to its cap; absent for the working tree. */
  log?: string;
  /** The files' diffs the request carries. */
  shown: FileDiff[];
  /** Those left out for size: each named, for the model to read. */
  omitted: FileDiff[];
}

/** The changes `target` names in the repository `git` runs in; a ReviewGitError where a ref names nothing. */
export async function gatherChanges(git: ReviewGit, root: string, target: ReviewTarget): Promise<ReviewChanges> {
  const { base, log } = await diffBase(git, target);
  const to = target.kind === 'range' ? await commitOf(git, target.to) : target.kind === 'commit' ? base.to : '';
  const diffArgs = to === '' ? [base.from] : [base.from, to];
  const diff = await git(['diff', ...DIFF_OPTIONS, ...diffArgs]);
  const files = splitDiff(diff);
  if (to === '') files.push(...(await untrackedDiffs(git, root)));
  // The working tree's diff is `git diff HEAD` (run against HEAD's hash, read once): named so for the model.
  const working = target.kind === 'working' && base.from !== EMPTY_TREE;
  const diffCommand = working ? 'git diff HEAD' : `git diff ${diffArgs.join(' ')}`;
  const cut = capped(files, REVIEW_DIFF_CAP);
  const logText = log === undefined ? undefined : log.length > LOG_CAP ? `${log.slice(0, LOG_CAP)}\n[log cut]` : log;
  return {
    target,
    title: targetTitle(target),
    diffCommand,
    ...(logText === undefined ? {} : { log: logText }),
    ...cut,
  };
}

/** Where the diff starts (and for a commit, where it ends), and the log of the commits between. */
async function diffBase(
  git: ReviewGit,
  target: ReviewTarget,
): Promise<{ base: { from: string; to: string }; log?: string }> {
  const logOf = (range: string) =>
    git(['log', '--no-decorate', '--no-show-signature', '--stat', '--format=medium', range]);
  switch (target.kind) {
    case 'working': {
      const head = await commitOf(git, 'HEAD').catch(() => EMPTY_TREE);
      return { base: { from: head, to: '' } };
    }
    case 'range': {
      const from = await commitOf(git, target.from);
      const to = await commitOf(git, target.to);
      const start = target.mergeBase ? (await git(['merge-base', from, to])).trim() : from;
      return { base: { from: start, to }, log: await logOf(`${start}..${to}`) };
    }
    case 'base': {
      const base = await commitOf(git, target.base ?? (await defaultBranch(git)));
      const head = await commitOf(git, 'HEAD');
      const start = (await git(['merge-base', base, head])).trim();
      return { base: { from: start, to: '' }, log: await logOf(`${start}..${head}`) };
    }
    case 'commit': {
      const commit = await commitOf(git, target.commit);
      const parent = await commitOf(git, `${commit}~1`).catch(() => EMPTY_TREE);
      return {
        base: { from: parent, to: commit },
        log: await logOf(`${parent === EMPTY_TREE ? '' : `${parent}..`}${commit}`),
      };
    }
  }
}

/** The branch a feature branch is compared with when none is named: the remote's HEAD, else main, else master. */
async function defaultBranch(git: ReviewGit): Promise<string> {
  const remote = await git(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']).catch(() => '');
  if (remote.trim() !== '') return remote.trim();
  for (const name of ['main', 'master'])
    if (
      await commitOf(git, name).then(
        () => true,
        () => false,
      )
    )
      return name;
  throw new ReviewGitError('no default branch found (origin/HEAD, main, master): name one with /review --base REF');
}

/** A whole diff split at each `diff --git`, each part with the file it is of. */
export function splitDiff(diff: string): FileDiff[] {
  const parts = diff.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '));
  return parts.map((text) => ({ file: fileOf(text), text: text.endsWith('\n') ? text : `${text}\n` }));
}

/** The new side's path of one file's diff (`+++ b/x`), or the old one's for a deletion. */
function fileOf(text: string): string {
  const plus = /^\+\+\+ b\/(.+)$/m.exec(text)?.[1];
  if (plus !== undefined) return plus;
  const minus = /^--- a\/(.+)$/m.exec(text)?.[1];
  return minus ?? /^diff --git a\/.+ b\/(.+)$/m.exec(text)?.[1] ?? '';
}

/** The untracked files (ignored ones left out) as diffs adding them; a large or binary one named only. */
async function untrackedDiffs(git: ReviewGit, root: string): Promise<FileDiff[]> {
  const listed = await git(['ls-files', '--others', '--exclude-standard', '-z']);
  const top = (await git(['rev-parse', '--show-toplevel'])).trim();
  const diffs: FileDiff[] = [];
  for (const file of listed.split('\0').filter((name) => name !== '')) {
    const text = await untrackedText(path.join(top || root, file));
    const header = `diff --git a/${file} b/${file}\nnew file (untracked)\n`;
    if (text === undefined) diffs.push({ file, text: `${header}(binary, large or not a regular file: not shown)\n` });
    else {
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      const body = lines.map((line) => `+${line}\n`).join('');
      diffs.push({ file, text: `${header}--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${lines.length} @@\n${body}` });
    }
  }
  return diffs;
}

/** A regular file's text (a link is not followed), if small and not binary. */
async function untrackedText(file: string): Promise<string | undefined> {
  const stats = await lstat(file).catch(() => undefined);
  if (!stats?.isFile() || stats.size > UNTRACKED_MAX_BYTES) return undefined;
  const handle = await open(file, 'r');
  try {
    const buffer = await handle.readFile();
    return buffer.includes(0) ? undefined : buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** `files` cut to `cap` characters: whole files in order while they fit, the rest omitted. */
export function capped(files: readonly FileDiff[], cap: number): { shown: FileDiff[]; omitted: FileDiff[] } {
  const shown: FileDiff[] = [];
  const omitted: FileDiff[] = [];
  let used = 0;
  for (const file of files) {
    if (omitted.length === 0 && used + file.text.length <= cap) {
      shown.push(file);
      used += file.text.length;
    } else omitted.push(file);
  }
  return { shown, omitted };
}
