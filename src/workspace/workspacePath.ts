import { WorkspaceError } from './workspaceError';

// Workspace-relative paths, checked before any adapter touches the disk: the same refusals everywhere. The
// adapters add what only the file system can tell (symlinks that lead out).

/**
 * The canonical form of a path a model gave: `/` separators, no `.` segments, no trailing slash. Refuses
 * `..`, absolute paths (unless under `rootPosix`, then made relative) and empty paths.
 */
export function normalizeWorkspacePath(given: string, rootPosix?: string): string {
  let path = given.trim().replace(/\\/g, '/');
  if (rootPosix !== undefined && (path === rootPosix || path.startsWith(`${rootPosix}/`)))
    path = path.slice(rootPosix.length);
  else if (path.startsWith('/') || /^[A-Za-z]:\//.test(path))
    throw new WorkspaceError(
      'outside_workspace',
      `'${given}' is an absolute path outside the workspace; use a workspace-relative path.`,
      given,
    );
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..')
      throw new WorkspaceError(
        'outside_workspace',
        `'${given}' leaves the workspace ('..' is not allowed); use a workspace-relative path.`,
        given,
      );
    if (segment.includes('\0')) throw new WorkspaceError('invalid_path', `'${given}' is not a valid path.`, given);
    segments.push(segment);
  }
  if (segments.length === 0)
    throw new WorkspaceError('invalid_path', `'${given}' names the workspace itself, not a file.`, given);
  return segments.join('/');
}

/** True for `.git` and anything under it, at any depth (submodules keep their own). */
export function isGitInternal(path: string): boolean {
  return path.split('/').some((segment) => segment === '.git');
}

/** Refuses writes under `.git/`. */
export function assertWritable(path: string): void {
  if (isGitInternal(path))
    throw new WorkspaceError('git_internal', `'${path}' is inside .git/; the agent does not write there.`, path);
}
