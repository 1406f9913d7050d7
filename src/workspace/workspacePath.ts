import { WorkspaceError } from './workspaceError';

// Workspace-relative paths, checked before any adapter touches the disk: the same refusals everywhere. The
// adapters add what only the file system can tell (symlinks that lead out).
//
// A name is refused not only for what it is on this disk but for what it may become on the way to another:
// Unicode compatibility forms (`‥` is `..`, `／` is `/` in NFKC), %-encoding (a URI built from the path),
// Windows dropping trailing dots and spaces (`.. ` is `..`, `.git.` is `.git`), HFS+ ignoring zero-width
// characters (`.g\u200Cit` is `.git`), and case-insensitive file systems (`.GIT` is `.git`). Such a name is
// a look-alike at best; at worst the same text escapes the workspace, or writes into .git/, elsewhere.

/** Characters HFS+ ignores in names (git's list), and other invisible ones: a name must not hide behind them. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u206A-\u206F\uFEFF]/g;
/** Slashes NFKC keeps as they are but a reader (or a careless tool) takes for `/` or `\`. */
const SLASH_LOOKALIKES = /[\u2044\u2215\u2571\u2572\u29F5\u29F8\u29F9\uFE68\uFF0F\uFF3C]/;

/** `segment` %-decoded (until it no longer changes), NFKC-normalised, invisible characters dropped. */
function lookalike(segment: string): string {
  let text = segment;
  for (let round = 0; round < 4; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      break; // A lone `%` (`100%.txt`) is no encoding.
    }
    if (decoded === text) break;
    text = decoded;
  }
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/** Windows' reading of a name: trailing dots and spaces dropped. */
const trimmed = (name: string) => name.replace(/[. ]+$/, '');

/**
 * The canonical form of a path a model gave: `/` separators, no `.` segments, no trailing slash. Refuses
 * `..`, absolute paths (unless under `rootPosix`, then made relative), empty paths, and segments that
 * read as `..`, `.` or a separator once normalised (see the top of this file).
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
    const seen = lookalike(segment);
    if (/[/\\]/.test(seen) || SLASH_LOOKALIKES.test(seen))
      throw new WorkspaceError(
        'invalid_path',
        `'${given}' has a character in '${segment}' that stands for a path separator once decoded or normalised; use a plain workspace-relative path with '/'.`,
        given,
      );
    if (trimmed(seen) === '')
      throw new WorkspaceError(
        'outside_workspace',
        `'${given}' has a segment '${segment}' that reads as '..' or '.' once decoded or normalised (look-alike dots, %-encoding, trailing dots or spaces); use a plain workspace-relative path.`,
        given,
      );
    segments.push(segment);
  }
  if (segments.length === 0)
    throw new WorkspaceError('invalid_path', `'${given}' names the workspace itself, not a file.`, given);
  return segments.join('/');
}

/** Whether a name is `.git` on some file system: any case, look-alikes, trailing dots, an NTFS stream or 8.3 name. */
function isGitName(segment: string): boolean {
  const name = trimmed(lookalike(segment).toLowerCase().split(':')[0] ?? '');
  return name === '.git' || name === 'git~1';
}

/** True for `.git` and anything under it, at any depth (submodules keep their own), look-alikes included. */
export function isGitInternal(path: string): boolean {
  return path.split('/').some(isGitName);
}

/**
 * What the model's own behaviour (and the editor's, and other agents') is read from: an edit there asks in
 * `auto` too (src/agent/approvals). The sandbox keeps the same folders read-only for commands
 * (src/sandbox/policy.ts).
 */
const PROTECTED_NAMES = new Set(['.git', '.vscode', '.loopwire', '.agents', '.claude', '.codex']);

/**
 * Whether a workspace path lies in a protected folder, at any depth (a submodule's .git too). Each name is read
 * as the file systems that fold them do, as `.git`'s is (isGitName): `.VSCode/tasks.json` is `.vscode`'s file on
 * macOS and Windows, and `.vscode.` on Windows.
 */
export function inProtectedFolder(path: string): boolean {
  const parts = path.split(/[\\/]+/).map((part) => trimmed(lookalike(part).toLowerCase().split(':')[0] ?? ''));
  return parts.some((part, i) => PROTECTED_NAMES.has(part) || (part === '.github' && parts[i + 1] === 'hooks'));
}

/** Refuses writes under `.git/`. */
export function assertWritable(path: string): void {
  if (isGitInternal(path))
    throw new WorkspaceError('git_internal', `'${path}' is inside .git/; the agent does not write there.`, path);
}
