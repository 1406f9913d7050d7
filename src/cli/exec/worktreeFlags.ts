// `loopwire exec --worktree NAME`'s flags (docs/worktrees.md): their usage and their own checks; the
// worktree is made, set up and opened by worktreeOpen.ts.
import { t } from '../cliL10n';

export const worktreeFlagOptions = {
  worktree: { type: 'string' },
  'worktree-carry': { type: 'boolean' },
  'worktree-setup': { type: 'string' },
} as const;

export const worktreeFlagsUsage = `  --worktree NAME        ${t(
  'run the task in a new git worktree on branch loopwire/NAME, made from HEAD outside the\n                         workspace ($XDG_STATE_HOME/loopwire/worktrees/REPO-NAME); the workspace changes\n                         only through `loopwire worktree apply NAME`',
)}
  --worktree-carry       ${t("carry the workspace's uncommitted changes (staged, unstaged, untracked) into it")}
  --worktree-setup CMD   ${t('run CMD in the worktree before the task (npm ci): in the sandbox with the\n                         network on where there is one, its output shown; the task stops if it fails')}
`;

/** The flags these checks read. */
interface WorktreeFlags {
  worktree?: string | undefined;
  'worktree-carry'?: boolean | undefined;
  'worktree-setup'?: string | undefined;
  'dump-request'?: boolean | undefined;
  resume?: string | undefined;
}

/** The worktree flags' own checks: a usage error's text, or undefined. */
export function worktreeFlagsProblem(flags: WorktreeFlags): string | undefined {
  if (flags.worktree === undefined && (flags['worktree-carry'] || flags['worktree-setup'] !== undefined))
    return '--worktree-carry and --worktree-setup go with --worktree NAME';
  if (flags.worktree !== undefined && flags['dump-request'])
    return '--dump-request makes nothing: leave out --worktree';
  if (flags.worktree !== undefined && flags.resume)
    return '--resume continues where the session was: leave out --worktree';
  return undefined;
}
