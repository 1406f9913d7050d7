/** Stable codes of every way the Workspace port refuses; tools turn them into messages a model can act on. */
export type WorkspaceErrorCode =
  /** `..`, an absolute path elsewhere, or a symlink that leads out of the workspace. */
  | 'outside_workspace'
  /** Writing under `.git/`. */
  | 'git_internal'
  | 'invalid_path'
  | 'not_found'
  | 'is_directory'
  | 'binary_file'
  | 'too_large'
  /** A file changed between planning an edit and applying it. */
  | 'changed_on_disk'
  | 'task_not_found'
  | 'invalid_query'
  | 'untrusted'
  | 'io_error';

export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'WorkspaceError';
  }
}

export function isWorkspaceError(error: unknown): error is WorkspaceError {
  return error instanceof WorkspaceError;
}
