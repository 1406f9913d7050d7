import { t } from '@vscode/l10n';
import type { EditError, EditErrorCode } from '../edit';
import type { WorkspaceError, WorkspaceErrorCode } from '../workspace';

// A refusal as the person watching reads it, in their language: made from the error's code and its
// arguments (a path, a chunk, an edit, a field), never from its message, which is the model's (English,
// with advice on which tool to call next). One table per kind of error, so that the ~50 places that throw
// one need no second text. English has no such copy (`ToolResult.shown`): the card and the terminal show the
// model's own words there, which say more.

/** Whether @vscode/l10n holds a bundle other than English: only then does a result carry a `shown` copy. */
export function translating(): boolean {
  return t('Nothing was changed.') !== 'Nothing was changed.';
}

type Sentence = (path: string | undefined) => string;

/** A sentence per code, with the path it names where the error named one. */
const WORKSPACE: Record<WorkspaceErrorCode, Sentence> = {
  outside_workspace: (path) =>
    path === undefined ? t('The path is outside the workspace.') : t('{0} is outside the workspace.', path),
  git_internal: (path) =>
    path === undefined
      ? t('Loopwire does not write inside .git/.')
      : t('{0} is inside .git/, which Loopwire does not write.', path),
  invalid_path: (path) =>
    path === undefined ? t('The path is not valid here.') : t('{0} is not a valid path here.', path),
  not_found: (path) => (path === undefined ? t('The file or folder was not found.') : t('{0} was not found.', path)),
  is_directory: (path) => t('{0} is a folder, not a file.', path ?? ''),
  binary_file: (path) => t('{0} is not a text file (binary, or not UTF-8).', path ?? ''),
  too_large: (path) => t('{0} is too large to read whole.', path ?? ''),
  changed_on_disk: (path) =>
    path === undefined
      ? t('The file changed while the edit was made; nothing was written.')
      : t('{0} changed on disk since it was read; nothing was written.', path),
  task_not_found: () => t('There is no such task in this workspace (or its dependencies loop).'),
  invalid_query: () => t('The query was refused: it is empty, or the search could not read its pattern.'),
  untrusted: () => t('This workspace is not trusted: Loopwire changes no file and runs nothing in it.'),
  io_error: (path) =>
    path === undefined ? t('A file operation failed.') : t('{0} could not be read or written.', path),
};

/** A Workspace port's refusal in the person's language; undefined in English. */
export function workspaceErrorDisplay(error: WorkspaceError): string | undefined {
  return translating() ? WORKSPACE[error.code](error.path) : undefined;
}

/** Where an edit error is: `src/a.ts, chunk 2`, `src/a.ts, edit 1`, `src/a.ts, line 4` (the file's). */
function editPlace(error: EditError): string {
  const path = error.path ?? t('the edit');
  if (error.chunk !== undefined) return t('{0}, chunk {1}', path, error.chunk);
  if (error.edit !== undefined) return t('{0}, edit {1}', path, error.edit);
  if (error.line !== undefined && error.code !== 'parse_error') return t('{0}, line {1}', path, error.line);
  return path;
}

const EDIT: Record<EditErrorCode, (place: string, error: EditError) => string> = {
  parse_error: (_place, error) =>
    error.line === undefined ? t('The edit is malformed.') : t('The patch is malformed at its line {0}.', error.line),
  invalid_edit: (place) => t('{0}: this edit cannot be applied as written.', place),
  no_match: (place) => t('{0}: the text to replace is not in the file.', place),
  ambiguous_match: (place) => t('{0}: the text to replace occurs more than once in the file.', place),
  overlapping_chunks: (place) => t('{0}: two parts of the edit change the same lines.', place),
  file_exists: (place) => t('{0}: the file already exists.', place),
  file_not_found: (place) => t('{0}: the file does not exist.', place),
  stale_read: (place) => t('{0}: the file changed since it was read, and the edit no longer fits.', place),
  hunk_conflict: (place) => t('{0}: the lines of this change were changed since.', place),
};

/** An edit's refusal in the person's language (nothing was changed); undefined in English. */
export function editErrorDisplay(error: EditError): string | undefined {
  if (!translating()) return undefined;
  return `${EDIT[error.code](editPlace(error), error)}\n${t('Nothing was changed.')}`;
}

/** Arguments the schema refused, by the fields named (zod's own words are the model's). */
export function invalidArgumentsDisplay(tool: string, fields: readonly string[]): string | undefined {
  if (!translating()) return undefined;
  const named = fields.map((field) => (field === '' ? t('(the arguments as a whole)') : field));
  return t('The model called {0} with invalid arguments: {1}.', tool, named.join(t(', ')));
}

/** A tool that failed on its own (not a refusal): the cause as the system gave it (an OS error stays as it is). */
export function toolFailedDisplay(tool: string, cause: string): string | undefined {
  return translating() ? t('{0} failed: {1}', tool, cause) : undefined;
}
