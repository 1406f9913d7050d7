import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { gitConfigReason } from '../../tools';

// Git as a review runs it: only reads, and nothing a repository's own config names gets to run. A folder
// handed to us may be a stranger's, with a `.git/config` naming programs: an fsmonitor hook (run by any
// command that reads the index), a pager, an external diff or textconv filter (run by diff and log), hooks.
// Each has an off switch on the command line, used on every call; a clean filter has none, so a config that
// sets one (or anything else that runs a program: gitConfigReason, the tools' own check) stops the review
// before git runs at all. No shell: the arguments go to git as they are, and a ref is resolved by
// `rev-parse --end-of-options` first, so a name like `--output=x` is never read as an option.

const GIT_TIMEOUT_MS = 20_000;
const GIT_MAX_BUFFER = 32 * 1024 * 1024;

/** The options every review git call starts with (after `git`): no program of the repository's runs. */
export const REVIEW_GIT_OPTIONS: readonly string[] = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.pager=cat',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'log.showSignature=false',
  '-c',
  'protocol.allow=never',
  '-c',
  'color.ui=never',
  '-c',
  'core.quotePath=false',
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '--no-pager',
  '--no-optional-locks',
];

/** A git command a review could not run: the message says which and why, for the user. */
export class ReviewGitError extends Error {
  readonly code = 'review_git';
}

/** Runs git in `root` with the review's options; its stdout, or a ReviewGitError naming the command. */
export type ReviewGit = (args: readonly string[]) => Promise<string>;

/**
 * The git a review of `root` runs, once the repository's config is found safe to read with; a ReviewGitError
 * where `root` is no repository, git is missing, or the config names a program.
 */
export async function reviewGit(root: string): Promise<ReviewGit> {
  const real = await realpath(root).catch(() => root);
  const git: ReviewGit = (args) => runGit(real, args);
  const inside = await git(['rev-parse', '--is-inside-work-tree']).catch((error: unknown) => {
    throw new ReviewGitError(
      `${real} is not in a git repository, so there are no changes to review (${message(error)})`,
    );
  });
  if (inside.trim() !== 'true') throw new ReviewGitError(`${real} is not in a git work tree: nothing to review`);
  const reason = await gitConfigReason(real, real);
  if (reason !== undefined) throw new ReviewGitError(`not reviewed: ${reason}`);
  return git;
}

/** Runs git in `cwd` with the review's options (no program of the repository's); a ReviewGitError if it fails. */
export function runGit(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...REVIEW_GIT_OPTIONS, ...args],
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_BUFFER,
        env: { ...process.env, GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error) {
          const said = String(stderr).trim().split('\n')[0] ?? '';
          reject(new ReviewGitError(`git ${args.join(' ')} failed${said ? `: ${said}` : ` (${error.message})`}`));
        } else resolve(String(stdout));
      },
    );
  });
}

/** `ref` as the commit it names, or a ReviewGitError saying it names none. */
export async function commitOf(git: ReviewGit, ref: string): Promise<string> {
  const sha = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]).catch(() => '');
  if (!/^[0-9a-f]{40,64}$/.test(sha.trim())) throw new ReviewGitError(`'${ref}' names no commit of this repository`);
  return sha.trim();
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
