import { execFile } from 'node:child_process';

// `@changes`: what the user changed in the working tree, as git says it — `git status --short` (untracked
// files show there only) and `git diff HEAD` (staged and unstaged together). Read-only git commands with no
// pager, no colour and no external diff tool, so nothing the user's config adds runs or lands in the text.

const GIT_TIMEOUT_MS = 10_000;
/** More than the attachment cap takes: the cut is said there, not here. */
const GIT_MAX_BUFFER = 8 * 1024 * 1024;

/** The changes of the working tree at `folder`; undefined where git is missing or `folder` is in no repository. */
export async function gitChanges(folder: string): Promise<string | undefined> {
  const inside = await git(folder, ['rev-parse', '--is-inside-work-tree']);
  if (inside?.trim() !== 'true') return undefined;
  const status = (await git(folder, ['status', '--short', '--untracked-files=all'])) ?? '';
  // A repository with no commit yet has no HEAD: what is staged is the change.
  const diff =
    (await git(folder, ['diff', '--no-ext-diff', 'HEAD'])) ??
    (await git(folder, ['diff', '--no-ext-diff', '--cached']));
  if (status.trim() === '' && (diff ?? '').trim() === '') return '';
  return `$ git status --short\n${status.trimEnd()}\n\n$ git diff HEAD\n${(diff ?? '').trimEnd()}`;
}

function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'color.ui=never', '-c', 'core.quotePath=false', ...args],
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: GIT_MAX_BUFFER,
        env: { ...process.env, GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' },
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}
