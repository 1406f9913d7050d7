// What a worktree command refuses, with a stable code and a message the user can act on: nothing has been
// changed when one of these is thrown (each command checks before it writes).

export type WorktreeErrorCode =
  'invalid_name' | 'exists' | 'not_a_repository' | 'not_found' | 'gone' | 'conflict' | 'unapplied' | 'git_failed';

export class WorktreeError extends Error {
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorktreeError';
  }
}
