import * as z from 'zod';

// What an edit did, as it leaves the edit engine: the hunk, the text format a file keeps, the edited file.
// The agent's events, the tools' results and the chat panel's messages all carry these schemas. The engine
// (src/edit) imports nothing and keeps its own TypeScript types (`Hunk`, `TextFormat`, `Eol`, `FileOp`);
// test/unit/edit/schemaTypes.test.ts proves they equal the types inferred here.

/** A line ending. */
export const Eol = z.enum(['\n', '\r\n']);

/** What an edit must keep of a file besides its lines. */
export const TextFormat = z.object({
  /** The text starts with U+FEFF (a UTF-8 byte order mark once encoded); it stays. */
  bom: z.boolean(),
  /** The ending given to new lines: the one most lines of the file use (LF on a tie or with none). */
  eol: Eol,
  /** The last line ends with a line ending. An empty file counts as having one, for the lines added to it. */
  finalNewline: z.boolean(),
});

/** What happens to a file. */
export const FileOp = z.enum(['create', 'delete', 'move', 'update']);

/** One contiguous change, as the edit engine computes it (lines without their endings). */
export const DiffHunk = z.object({
  /** Stable: derived from the path, the position and the lines, so a preview and the final plan agree. */
  id: z.string(),
  /** 1-based line of the old text where `oldLines` start; for a pure insertion, the line it goes before. */
  oldStart: z.int().nonnegative(),
  oldLines: z.array(z.string()),
  /** 1-based line of the new text where `newLines` start (with every hunk of the edit applied). */
  newStart: z.int().nonnegative(),
  newLines: z.array(z.string()),
  /** A few unchanged lines before, never reaching into the previous hunk. */
  contextBefore: z.array(z.string()),
  /** A few unchanged lines after, never reaching into the next hunk. */
  contextAfter: z.array(z.string()),
});

/** A file an edit tool wrote, by its workspace path (a move's destination): its hunks, for a review that takes them back one by one. */
export const EditedFile = z.object({
  path: z.string(),
  op: FileOp,
  /** A move's source. */
  movedFrom: z.string().optional(),
  hunks: z.array(DiffHunk),
  format: TextFormat,
});

export type Eol = z.infer<typeof Eol>;
export type TextFormat = z.infer<typeof TextFormat>;
export type FileOp = z.infer<typeof FileOp>;
export type DiffHunk = z.infer<typeof DiffHunk>;
export type EditedFile = z.infer<typeof EditedFile>;
