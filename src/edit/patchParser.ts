// Parses the apply_patch format leniently where that is safe: marker lines may carry surrounding
// whitespace, a heredoc wrapper (`<<'EOF'` … `EOF`) is taken off, a git-style `@@ -1,3 +1,4 @@` header is
// read as a plain `@@`, several `@@` lines in a row narrow the search step by step. Everything else that is
// not in the format is refused with the patch line number.
import { type EditError, editError } from './errors';
import type { PatchChunk, PatchOp, ParsedPatch, UpdateFileOp } from './patchTypes';
import { type Result, err, ok } from './result';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const END_OF_FILE = '*** End of File';
const MOVE_TO = '*** Move to: ';
const HEADERS = { '*** Add File: ': 'add', '*** Delete File: ': 'delete', '*** Update File: ': 'update' } as const;
const HEREDOC_OPENERS = new Set(['<<EOF', "<<'EOF'", '<<"EOF"']);
const GIT_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;

interface Line {
  text: string;
  /** 1-based line number in the patch text. */
  no: number;
}

/** A patch read while it is still being written (see `parsePartialPatch`). */
export interface PartialPatch {
  ops: PatchOp[];
  /** `*** End Patch` has not arrived: the last section, and its last chunk, may still grow. */
  open: boolean;
  /** A complete line that no continuation can make valid; `ops` holds the sections before it. */
  error?: EditError;
}

/** Parses a complete patch, from `*** Begin Patch` to `*** End Patch`. */
export function parsePatch(text: string): Result<ParsedPatch, EditError> {
  const lines = toLines(text);
  let first = lines.findIndex((line) => line.text.trim() !== '');
  let last = findLastIndex(lines, (line) => line.text.trim() !== '');
  if (first !== -1 && HEREDOC_OPENERS.has(lines[first]?.text.trim() ?? '') && lines[last]?.text.trim() === 'EOF') {
    first = lines.findIndex((line, i) => i > first && line.text.trim() !== '');
    last = findLastIndex(lines, (line, i) => i < last && line.text.trim() !== '');
  }
  const head = lines[first];
  const tail = lines[last];
  if (!head || !tail || first >= last) {
    return err(parseError(`the patch must start with '${BEGIN}' and end with '${END}'`, head?.no));
  }
  if (head.text.trim() !== BEGIN) {
    return err(parseError(`the first line of the patch must be '${BEGIN}', not '${head.text.trim()}'`, head.no));
  }
  if (tail.text.trim() !== END) {
    return err(parseError(`the last line of the patch must be '${END}', not '${tail.text.trim()}'`, tail.no));
  }
  const body = parseBody(lines.slice(first + 1, last), false);
  if (body.error) return err(body.error);
  if (body.ops.length === 0) return err(parseError('the patch has no file sections', head.no));
  return ok({ ops: body.ops, paths: touchedPaths(body.ops) });
}

/**
 * Parses a patch that may stop anywhere: no `*** End Patch` needed, an unfinished last line is dropped
 * unless it is an added (`+`) line, sections and chunks may be empty so far. Never fails; a line that is
 * already wrong is reported in `error`.
 */
export function parsePartialPatch(text: string): PartialPatch {
  const lines = toLines(text);
  const unfinished = !text.endsWith('\n') ? lines.pop() : undefined;
  if (unfinished?.text.startsWith('+')) lines.push(unfinished);
  let first = lines.findIndex((line) => line.text.trim() !== '');
  if (first !== -1 && HEREDOC_OPENERS.has(lines[first]?.text.trim() ?? '')) {
    first = lines.findIndex((line, i) => i > first && line.text.trim() !== '');
  }
  const head = lines[first];
  if (!head) return { ops: [], open: true };
  if (head.text.trim() !== BEGIN) {
    return { ops: [], open: true, error: parseError(`the first line of the patch must be '${BEGIN}'`, head.no) };
  }
  const rest = lines.slice(first + 1);
  const end = rest.findIndex((line) => line.text.trim() === END);
  const body = parseBody(end === -1 ? rest : rest.slice(0, end), true);
  return { ops: body.ops, open: end === -1, ...(body.error ? { error: body.error } : {}) };
}

function toLines(text: string): Line[] {
  return text.split('\n').map((line, i) => ({ text: line.endsWith('\r') ? line.slice(0, -1) : line, no: i + 1 }));
}

function findLastIndex<T>(items: readonly T[], test: (item: T, index: number) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T, i)) return i;
  return -1;
}

function parseError(message: string, line?: number): EditError {
  return editError('parse_error', line === undefined ? message : `patch line ${line}: ${message}`, { line });
}

/** `*** Add File: x` and friends, whitespace around the marker allowed. */
function parseHeader(text: string): { kind: PatchOp['kind']; path: string } | undefined {
  const trimmed = text.trim();
  for (const [marker, kind] of Object.entries(HEADERS)) {
    if (trimmed.startsWith(marker)) return { kind, path: trimmed.slice(marker.length).trim() };
  }
  return undefined;
}

/** A line that ends an update section: a file header or the end marker, at the start of the line. */
function endsSection(text: string): boolean {
  return !/^\s/.test(text) && (parseHeader(text) !== undefined || text.trim() === END);
}

function parseBody(lines: readonly Line[], partial: boolean): { ops: PatchOp[]; error?: EditError } {
  const ops: PatchOp[] = [];
  const seen = new Map<string, number>();
  const claim = (path: string, no: number): EditError | undefined => {
    const before = seen.get(path);
    if (before !== undefined) {
      return parseError(
        `'${path}' already appears at patch line ${before}; put all changes to a file in one section`,
        no,
      );
    }
    seen.set(path, no);
    return undefined;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as Line;
    if (line.text.trim() === '') {
      i++;
      continue;
    }
    const header = parseHeader(line.text);
    if (!header) {
      const after = ops.at(-1)?.kind === 'add' ? ' (every line of an added file starts with +)' : '';
      const message = `'${line.text}' is not a file header${after}; expected '*** Add File: PATH', '*** Delete File: PATH' or '*** Update File: PATH'`;
      return { ops, error: parseError(message, line.no) };
    }
    if (header.path === '') return { ops, error: parseError('the file header names no path', line.no) };
    const duplicate = claim(header.path, line.no);
    if (duplicate) return { ops, error: duplicate };
    i++;
    if (header.kind === 'delete') {
      ops.push({ kind: 'delete', path: header.path, line: line.no });
    } else if (header.kind === 'add') {
      const added: string[] = [];
      while (i < lines.length && lines[i]?.text.startsWith('+')) added.push((lines[i++] as Line).text.slice(1));
      ops.push({ kind: 'add', path: header.path, lines: added, line: line.no });
    } else {
      const op: UpdateFileOp = { kind: 'update', path: header.path, chunks: [], line: line.no };
      const move = lines[i];
      if (move && move.text.trim().startsWith(MOVE_TO)) {
        op.moveTo = move.text.trim().slice(MOVE_TO.length).trim();
        if (op.moveTo === '') return { ops, error: parseError('*** Move to: names no path', move.no) };
        const moved = claim(op.moveTo, move.no);
        if (moved) return { ops, error: moved };
        i++;
      }
      const parsed = parseChunks(lines, i, op, partial && isLastSection(lines, i));
      if (parsed.error) return { ops, error: parsed.error };
      i = parsed.next;
      ops.push(op);
    }
  }
  return { ops };
}

function isLastSection(lines: readonly Line[], from: number): boolean {
  for (let i = from; i < lines.length; i++) if (endsSection((lines[i] as Line).text)) return false;
  return true;
}

/** Reads the chunks of `op` starting at `start`; `open` lets its last chunk (or the section) be unfinished. */
function parseChunks(
  lines: readonly Line[],
  start: number,
  op: UpdateFileOp,
  open: boolean,
): { next: number; error?: EditError } {
  let chunk: PatchChunk | undefined;
  let i = start;
  for (; i < lines.length; i++) {
    const { text, no } = lines[i] as Line;
    if (endsSection(text)) break;
    if (text.startsWith('*') && text.trimEnd() === END_OF_FILE) {
      if (!chunk || !chunk.lines.some((l) => l.kind !== ' ' || !l.bare)) {
        return { next: i, error: parseError(`${END_OF_FILE} must follow the lines of a chunk`, no) };
      }
      chunk.endOfFile = true;
      chunk = undefined;
      continue;
    }
    if (text.trimEnd() === '@@' || text.startsWith('@@ ')) {
      const raw = text.slice(2).trim();
      const context = GIT_RANGE.exec(raw)?.[1]?.trim() ?? raw;
      if (chunk && chunk.lines.length === 0) {
        if (context !== '') chunk.contexts.push(context);
      } else {
        chunk = { contexts: context === '' ? [] : [context], lines: [], endOfFile: false, line: no };
        op.chunks.push(chunk);
      }
      continue;
    }
    if (text === '') {
      chunk?.lines.push({ kind: ' ', text: '', bare: true });
      continue;
    }
    const kind = text[0];
    if (kind !== ' ' && kind !== '-' && kind !== '+') {
      const message = `'${text}' in the update of ${op.path}: every chunk line starts with ' ' (unchanged), '-' (removed) or '+' (added), and a chunk starts with @@`;
      return { next: i, error: parseError(message, no) };
    }
    if (!chunk) {
      if (op.chunks.length > 0) {
        return { next: i, error: parseError(`a chunk after ${END_OF_FILE} must start with @@`, no) };
      }
      chunk = { contexts: [], lines: [], endOfFile: false, line: no };
      op.chunks.push(chunk);
    }
    chunk.lines.push({ kind, text: text.slice(1) });
  }
  const empty = op.chunks.findIndex((c) => c.lines.length === 0);
  if (empty !== -1 && !(open && empty === op.chunks.length - 1)) {
    return { next: i, error: parseError(`chunk ${empty + 1} of ${op.path} has no lines`, op.chunks[empty]?.line) };
  }
  if (!open && op.chunks.length === 0 && op.moveTo === undefined) {
    return { next: i, error: parseError(`*** Update File: ${op.path} has no chunks`, op.line) };
  }
  return { next: i };
}

function touchedPaths(ops: readonly PatchOp[]): string[] {
  return ops.flatMap((op) => (op.kind === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path]));
}
