// One file's change in a commit, turned into the section of an apply_patch patch that makes it, as a model
// would write it from the diff: each unified hunk of `git diff -U3` becomes a bare `@@` chunk (its context,
// removed and added lines as they are), with `*** End of File` where the hunk reaches the end of the old file;
// an added file is `*** Add File` with every line, a deleted one `*** Delete File`, a rename `*** Move to`.

/** The file before and after the commit, decoded (null where it does not exist on that side). */
export interface FileChange {
  oldPath: string;
  newPath: string;
  oldText: string | null;
  newText: string | null;
}

/**
 * What the format cannot say, so that no patch can make the commit's bytes exactly: the section is still
 * applied, and its result compared with the commit's text as the format can carry it (`expected`).
 */
export type Inexpressible =
  /** The new text does not end with a line break: every patch line ends with one, and (as Codex) an updated file ends with one. */
  | 'no_final_newline'
  /** An added file's lines end with CR: patch lines are read without a line's CR, in Codex as here. */
  | 'added_crlf';

/** One file's section and what applying it must leave. */
export interface FileSection {
  lines: string[];
  chunks: number;
  /** Chunks given context lines beyond the diff's 3 (see `enough`). */
  widened: number;
  /** The text the path of `newPath` must have afterwards (null: gone), as far as the format can say it. */
  expected: string | null;
  inexpressible?: Inexpressible;
}

interface DiffHunk {
  oldStart: number;
  oldCount: number;
  lines: string[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** The hunks of a one-file `git diff` (its header lines skipped; `\ No newline` markers dropped). */
export function parseHunks(diff: string): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let current: DiffHunk | undefined;
  // Split on LF only: a CR at the end of a line is the file's, and stays in the line.
  const rows = diff.split('\n');
  if (rows.at(-1) === '') rows.pop();
  for (const row of rows) {
    const header = HUNK_HEADER.exec(row);
    if (header) {
      current = { oldStart: Number(header[1]), oldCount: header[2] === undefined ? 1 : Number(header[2]), lines: [] };
      hunks.push(current);
    } else if (current && (row.startsWith(' ') || row.startsWith('-') || row.startsWith('+'))) {
      current.lines.push(row);
    } else if (current && row.startsWith('\\')) {
      continue;
    } else if (current) {
      current = undefined;
    }
  }
  return hunks;
}

/** Lines of a text as `git diff` counts them (a last line without a line break counts). */
function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** Text with a line break at its end where it has none (what a patch makes of it), in its own line ending. */
function withFinalNewline(text: string, eol: string): string {
  return text === '' || text.endsWith('\n') ? text : text + eol;
}

/** The ending most of `text`'s lines use (LF on a tie or with none), as the engine picks it for new lines. */
function majorityEol(text: string): string {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** The section for one changed file; `diff` is its `git diff -U3` (unused for adds and deletes). */
export function sectionFor(change: FileChange, diff: string): FileSection {
  const { oldPath, newPath, oldText, newText } = change;
  if (oldText === null) {
    const text = newText ?? '';
    const rows = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    const section: FileSection = {
      lines: [`*** Add File: ${newPath}`, ...rows.map((row) => `+${row}`)],
      chunks: 0,
      widened: 0,
      expected: withFinalNewline(text, '\n'),
    };
    if (rows.some((row) => row.endsWith('\r'))) {
      section.inexpressible = 'added_crlf';
      section.expected = (section.expected ?? '').replace(/\r\n/g, '\n');
    } else if (section.expected !== text) {
      section.inexpressible = 'no_final_newline';
    }
    return section;
  }
  if (newText === null) return { lines: [`*** Delete File: ${oldPath}`], chunks: 0, widened: 0, expected: null };
  const lines = [`*** Update File: ${oldPath}`];
  if (newPath !== oldPath) lines.push(`*** Move to: ${newPath}`);
  const hunks = parseHunks(diff);
  const total = lineCount(oldText);
  const rows = oldText.split('\n');
  const old = rows.map((row) => row.replace(/\r$/, ''));
  let cursor = 0;
  let widened = 0;
  for (const hunk of hunks) {
    // A hunk of only added lines (an empty old file) has oldStart 0; it too reaches the end.
    const end = hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart + hunk.oldCount - 1;
    const atEnd = end === total;
    const extra = atEnd || hunk.oldCount === 0 ? [] : enough(old, rows, hunk, cursor);
    if (extra.length > 0) widened++;
    lines.push('@@', ...extra, ...hunk.lines);
    if (atEnd) lines.push('*** End of File');
    cursor = end;
  }
  const section: FileSection = { lines, chunks: hunks.length, widened, expected: newText };
  if (hunks.length > 0) {
    section.expected = withFinalNewline(newText, majorityEol(oldText));
    if (section.expected !== newText) section.inexpressible = 'no_final_newline';
  }
  return section;
}

/** The first index at or after `from` where `pattern` is exactly `lines`' lines (-1: none). */
function firstExact(lines: readonly string[], pattern: readonly string[], from: number): number {
  for (let i = from; i + pattern.length <= lines.length; i++) {
    let k = 0;
    while (k < pattern.length && lines[i + k] === pattern[k]) k++;
    if (k === pattern.length) return i;
  }
  return -1;
}

/**
 * The context lines to put before a hunk so that its first fit after the previous chunk (which ends at
 * `cursor`) is its own place, as a model writing for Codex's semantics must: usually none. Where the
 * diff's 3 lines of context also occur between the previous chunk and this one, lines of the file before
 * the hunk are added one at a time (`rows` as the patch writes them, `old` as they compare).
 */
function enough(old: readonly string[], rows: readonly string[], hunk: DiffHunk, cursor: number): string[] {
  const own = hunk.lines.filter((line) => !line.startsWith('+')).map((line) => line.slice(1).replace(/\r$/, ''));
  const extra: string[] = [];
  let start = hunk.oldStart - 1;
  let pattern = own;
  while (start > cursor && firstExact(old, pattern, cursor) !== start) {
    start--;
    extra.unshift(` ${rows[start] ?? ''}`);
    pattern = [old[start] ?? '', ...pattern];
  }
  return extra;
}
