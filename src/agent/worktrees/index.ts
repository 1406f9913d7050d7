// A task in its own git worktree: made, measured against its base, applied, discarded (README.md).
export { type CreateWorktree, createWorktree } from './worktreeCreate';
export {
  type WorktreeChanges,
  type WorktreeStatus,
  applyWorktree,
  discardWorktree,
  findWorktree,
  listWorktrees,
  worktreeChanges,
  worktreeStatus,
} from './worktreeFinish';
export { WorktreeError, type WorktreeErrorCode } from './worktreeError';
export { type WorktreeFileChange, worktreeBaseText, worktreeFiles } from './worktreeFiles';
export { BRANCH_PREFIX, defaultWorktreePath, nameProblem, worktreesFolder } from './worktreePaths';
export type { WorktreeRecord } from './worktreeStore';
export { type WorktreeExtras, worktreeConfinement } from './worktreeSandbox';
export { worktreeAt } from './worktreeHere';
