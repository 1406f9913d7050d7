import type { Result } from './result';

/**
 * Stable codes of every way an edit can be refused. Callers branch on these; the message is for the model
 * (or the user) and says what to do next.
 */
export type EditErrorCode =
  /** The patch or the edit arguments are malformed (names the patch line). */
  | 'parse_error'
  /** An edit is well formed but cannot mean anything (an empty old_string on a file with text, …). */
  | 'invalid_edit'
  /** The lines or old_string are not in the file; the message shows the closest real text. */
  | 'no_match'
  /** An edit_file old_string matches more than one place; the message names each (apply_patch takes the first). */
  | 'ambiguous_match'
  /** Two chunks of one file claim the same lines. */
  | 'overlapping_chunks'
  /** A file to create (or a move's destination) already exists. */
  | 'file_exists'
  /** A file to update, move or delete does not exist. */
  | 'file_not_found'
  /** The file changed since it was read and a hunk no longer matches exactly one place. */
  | 'stale_read'
  /** A hunk cannot be applied or reverted: its own lines changed. */
  | 'hunk_conflict';

/** Why an edit was refused. Nothing was changed when one is returned. */
export interface EditError {
  code: EditErrorCode;
  /** What went wrong and what to do, with file, chunk or edit number, and 1-based line numbers. */
  message: string;
  /** The file concerned, as the patch or the edit named it. */
  path?: string;
  /** 1-based chunk number within the file's `*** Update File` section. */
  chunk?: number;
  /** 1-based index into `edits` of an edit_file call. */
  edit?: number;
  /** 1-based line: in the patch text for parse errors, in the file otherwise. */
  line?: number;
}

/** Where an error happened, as much as is known. */
export type ErrorPlace = Pick<EditError, 'path' | 'chunk' | 'edit' | 'line'>;

/** Builds an {@link EditError}, leaving out the places that are not known. */
export function editError(code: EditErrorCode, message: string, place: ErrorPlace = {}): EditError {
  const error: EditError = { code, message };
  if (place.path !== undefined) error.path = place.path;
  if (place.chunk !== undefined) error.chunk = place.chunk;
  if (place.edit !== undefined) error.edit = place.edit;
  if (place.line !== undefined) error.line = place.line;
  return error;
}

/** A failed result carrying a new {@link EditError}. */
export function fail(code: EditErrorCode, message: string, place: ErrorPlace = {}): Result<never, EditError> {
  return { ok: false, error: editError(code, message, place) };
}

/** How a message names the part of the input it is about: `src/a.ts, chunk 2` or `src/a.ts, edit 1`. */
export function placeLabel(place: ErrorPlace): string {
  const parts = [place.path ?? '(no path)'];
  if (place.chunk !== undefined) parts.push(`chunk ${place.chunk}`);
  if (place.edit !== undefined) parts.push(`edit ${place.edit}`);
  return parts.join(', ');
}
