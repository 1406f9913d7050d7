import * as os from 'node:os';
import * as path from 'node:path';
import { WorktreeError } from './worktreeError';
import { runGit } from './worktreeGit';

// Which repository a folder is in, what a worktree may be called, and where it goes by default: outside the
// workspace folder, under Loopwire's state (`$XDG_STATE_HOME/loopwire/worktrees/REPO-NAME`).

/** The prefix of every worktree branch: what Loopwire made is told apart from the user's branches. */
export const BRANCH_PREFIX = 'loopwire/';

/** The repository a folder is in: its top folder (real path) and its common git folder (absolute). */
export interface RepositoryPaths {
  top: string;
  commonDir: string;
}

export async function repositoryOf(folder: string): Promise<RepositoryPaths> {
  const run = await runGit(folder, ['rev-parse', '--show-toplevel', '--git-common-dir']);
  const [top, common] = run.stdout.split('\n');
  if (run.code !== 0 || !top || !common)
    throw new WorktreeError('not_a_repository', `${folder} is not in a git repository with a working tree.`);
  return { top, commonDir: path.resolve(top, common) };
}

/**
 * Why `name` cannot name a worktree, if it cannot: a slug of letters, digits, `.`, `_` and `-`, with at most
 * one `/` (`fix/login`), not starting with `-` or `.` (an option, a hidden folder), no `..`, no `.lock`.
 * git check-ref-format is asked too, for whatever git itself refuses.
 */
export function nameProblem(name: string): string | undefined {
  const part = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
  const parts = name.split('/');
  if (name.length === 0) return 'A worktree needs a name.';
  if (name.length > 64) return `The worktree name "${name.slice(0, 64)}…" is longer than 64 characters.`;
  if (parts.length > 2) return `The worktree name "${name}" has more than one "/": use at most one level (fix/login).`;
  if (name.includes('..') || parts.some((p) => !part.test(p) || p.endsWith('.lock') || p.endsWith('.')))
    return (
      `The worktree name "${name}" is not a plain name: use letters, digits, ".", "_" and "-" ` +
      '(not first), with at most one "/".'
    );
  return undefined;
}

/** Checks `name` as nameProblem does, then as git does for the branch `loopwire/NAME`. */
export async function checkName(top: string, name: string): Promise<void> {
  const problem = nameProblem(name);
  if (problem !== undefined) throw new WorktreeError('invalid_name', problem);
  const run = await runGit(top, ['check-ref-format', '--branch', `${BRANCH_PREFIX}${name}`]);
  if (run.code !== 0)
    throw new WorktreeError('invalid_name', `git does not take "${BRANCH_PREFIX}${name}" as a branch.`);
}

/** Loopwire's state folder: $XDG_STATE_HOME/loopwire, ~/.local/state/loopwire without it. */
export function stateFolder(env: NodeJS.ProcessEnv = process.env): string {
  const given = env['XDG_STATE_HOME'];
  const state = given && path.isAbsolute(given) ? given : path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'loopwire');
}

/** Where worktrees go by default. */
export function worktreesFolder(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateFolder(env), 'worktrees');
}

/** The default folder of worktree `name` of the repository at `top`: REPO-NAME, the `/` made a `-`. */
export function defaultWorktreePath(top: string, name: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(worktreesFolder(env), `${path.basename(top)}-${name.replace('/', '-')}`);
}

/** Whether `p` is `folder` or inside it. */
export function isInside(p: string, folder: string): boolean {
  const rel = path.relative(folder, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
