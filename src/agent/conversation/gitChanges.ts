import { realpath } from 'node:fs/promises';
import { gitConfigReason } from '../../tools';
import { runGit } from '../review/reviewGit';

// `@changes`: what the user changed in the working tree, as git says it — `git status --short` (untracked
// files show there only) and `git diff HEAD` (staged and unstaged together). The repository may be a
// stranger's, and its .git/config can name programs that status and diff start: an fsmonitor hook, a pager,
// an external diff, a textconv or clean filter. So git runs as a review runs it (every off switch on the
// command line, REVIEW_GIT_OPTIONS, and --no-ext-diff --no-textconv), and a config naming a program with no
// off switch (a clean filter: gitConfigReason) is not read at all: the attachment says why instead.

/** The changes of the working tree at `folder`; undefined where git is missing or `folder` is in no repository. */
export async function gitChanges(folder: string): Promise<string | undefined> {
  const inside = await git(folder, ['rev-parse', '--is-inside-work-tree']);
  if (inside?.trim() !== 'true') return undefined;
  const real = await realpath(folder).catch(() => folder);
  const reason = await gitConfigReason(real, real);
  if (reason !== undefined) return `(git's changes were not read: ${reason})`;
  const status = (await git(folder, ['status', '--short', '--untracked-files=all'])) ?? '';
  // A repository with no commit yet has no HEAD: what is staged is the change.
  const diff =
    (await git(folder, ['diff', '--no-ext-diff', '--no-textconv', 'HEAD'])) ??
    (await git(folder, ['diff', '--no-ext-diff', '--no-textconv', '--cached']));
  if (status.trim() === '' && (diff ?? '').trim() === '') return '';
  return `$ git status --short\n${status.trimEnd()}\n\n$ git diff HEAD\n${(diff ?? '').trimEnd()}`;
}

/** git's output in `cwd`, run as a review runs it; undefined where it fails (no git, no HEAD yet). */
function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return runGit(cwd, args).catch(() => undefined);
}
