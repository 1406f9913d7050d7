// A file's text as the engine sees it: content lines, and apart from them what must survive every edit
// byte for byte (BOM, line endings, whether the last line ends with one).

/** A line ending. */
export type Eol = '\n' | '\r\n';

/** What an edit must keep of a file besides its lines. */
export interface TextFormat {
  /** The text starts with U+FEFF (a UTF-8 byte order mark once encoded); it stays. */
  bom: boolean;
  /** The ending given to new lines: the one most lines of the file use (LF on a tie or with none). */
  eol: Eol;
  /** The last line ends with a line ending. An empty file counts as having one, for the lines added to it. */
  finalNewline: boolean;
}

/** A text split into lines. `ends[i]` is line i's own ending, kept for lines an edit does not touch. */
export interface TextLines {
  format: TextFormat;
  /** Content lines without their endings; an empty text has none. */
  lines: string[];
  /** `'\n'`, `'\r\n'`, or `''` (only ever the last line). */
  ends: string[];
}

const BOM = '\uFEFF';

/**
 * Splits `text` into lines, noting its format; `joinText` gives back exactly `text`. Given the format of
 * the file the text came from, a text that file's format says has no final newline but that ends with one
 * is read as ending in an empty last line: an edit that empties the last line of such a file leaves its
 * text ending in the newline before it, and the plan's hunks still count that line.
 */
export function splitText(text: string, format?: TextFormat): TextLines {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const ends: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < body.length) {
    const newline = body.indexOf('\n', start);
    if (newline === -1) {
      lines.push(body.slice(start));
      ends.push('');
      break;
    }
    const cr = newline > start && body.charCodeAt(newline - 1) === 13;
    lines.push(body.slice(start, cr ? newline - 1 : newline));
    ends.push(cr ? '\r\n' : '\n');
    if (cr) crlf++;
    else lf++;
    start = newline + 1;
  }
  if (format && !format.finalNewline && body.endsWith('\n')) {
    lines.push('');
    ends.push('');
  }
  const detected: TextFormat = {
    bom,
    eol: crlf > lf ? '\r\n' : '\n',
    finalNewline: body.length === 0 || body.endsWith('\n'),
  };
  return { format: format ?? detected, lines, ends };
}

/** A {@link TextLines} nobody may change (it may be shared). */
export interface ReadonlyTextLines {
  readonly format: TextFormat;
  readonly lines: readonly string[];
  readonly ends: readonly string[];
}

const recent = new Map<string, ReadonlyTextLines>();
const RECENT_LIMIT = 16;

/**
 * `splitText(text)`, remembered for the last few texts: a preview splits the same snapshot on every delta,
 * and the match index built on the lines is kept with them.
 */
export function readLines(text: string): ReadonlyTextLines {
  let split = recent.get(text);
  if (split) {
    recent.delete(text);
  } else {
    const { format, lines, ends } = splitText(text);
    split = Object.freeze({ format: Object.freeze(format), lines: Object.freeze(lines), ends: Object.freeze(ends) });
    if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value as string);
  }
  recent.set(text, split);
  return split;
}

/** The format `splitText` would note for `text`. */
export function detectTextFormat(text: string): TextFormat {
  return splitText(text).format;
}

/**
 * Joins lines back into text: untouched lines keep their own endings, new ones get the format's, and the
 * last line ends with one exactly when the format says so.
 */
export function joinText({ format, lines, ends }: ReadonlyTextLines): string {
  let text = format.bom ? BOM : '';
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const own = ends[i] ?? '';
    const end = i < last ? own || format.eol : format.finalNewline ? own || format.eol : '';
    text += lines[i] + end;
  }
  return text;
}

/** A file's content as one LF-joined string, the form edit_file's old_string is matched against. */
export function contentString(lines: readonly string[], format: TextFormat): string {
  return lines.length === 0 ? '' : lines.join('\n') + (format.finalNewline ? '\n' : '');
}

/**
 * The ways to read `text` as lines of a file in `format`: one, except for an empty text of a file with no
 * final newline, which is either no lines or one empty line (an edit that emptied its only line). Callers
 * applying hunks take the first reading the hunks fit.
 */
export function readingsOf(text: string, format: TextFormat): TextLines[] {
  const split = splitText(text, format);
  if (format.finalNewline || split.lines.length > 0) return [split];
  return [split, { format, lines: [''], ends: [''] }];
}
