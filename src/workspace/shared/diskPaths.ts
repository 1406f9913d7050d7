import * as fs from 'node:fs';
import * as path from 'node:path';
import { inProtectedFolder, isGitInternal, normalizeWorkspacePath } from '../workspacePath';
import { WorkspaceError } from '../workspaceError';

// Where a workspace-relative path really is on disk. The lexical checks (`..`, absolute paths) come from
// workspacePath.ts; what only the file system knows — a symlink anywhere on the way that leads out of the
// root, into .git/, or (for a write) into another protected folder — is checked here, on the real path, before
// anything is read or written.

const isMissing = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';

/**
 * The real path of `candidate`, or of its deepest existing ancestor with the rest appended. Resolved in one
 * synchronous call: it runs before every read and write, and on a local disk the thread pool's round trip
 * costs several times the call itself (about 0.1 ms against 10 µs here, more with a busy socket).
 */
export function realLocation(candidate: string): string {
  const rest: string[] = [];
  let current = candidate;
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(current), ...rest.reverse());
    } catch (error) {
      if (!isMissing(error)) throw error;
      const parent = path.dirname(current);
      if (parent === current) throw error;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export interface Located {
  /** The canonical workspace-relative path. */
  path: string;
  /** Where it is on disk, symlinks resolved. */
  real: string;
}

/** `given` under `root` (a real path), refused when it leads out; `forWrite` also refuses `.git/`. */
export function locateReal(root: string, given: string, forWrite: boolean): Located {
  const rel = normalizeWorkspacePath(given, root.split(path.sep).join('/'));
  if (forWrite && isGitInternal(rel))
    throw new WorkspaceError('git_internal', `'${rel}' is inside .git/; the agent does not write there.`, rel);
  let real: string;
  try {
    real = realLocation(path.join(root, ...rel.split('/')));
  } catch (error) {
    throw new WorkspaceError('io_error', `'${rel}' cannot be resolved: ${(error as Error).message}`, rel);
  }
  if (!isInside(root, real))
    throw new WorkspaceError('outside_workspace', `'${rel}' leads out of the workspace through a symbolic link.`, rel);
  const realRel = path.relative(root, real).split(path.sep).join('/');
  if (forWrite && isGitInternal(realRel))
    throw new WorkspaceError('git_internal', `'${rel}' leads into .git/ through a symbolic link.`, rel);
  // An edit of a protected folder (.vscode, .github/hooks, …) is asked for by its path: one through a link there
  // from a path that is not in one would be written unasked (a repository may ship `vs -> .vscode`).
  if (forWrite && inProtectedFolder(realRel) && !inProtectedFolder(rel))
    throw new WorkspaceError(
      'invalid_path',
      `'${rel}' leads through a symbolic link into a protected folder, to ${realRel}: edit it by that path, which asks first.`,
      rel,
    );
  return { path: rel, real };
}
