// Finds where each chunk of an `*** Update File` section goes and what replaces it, with Codex's semantics
// (codex-rs/apply-patch, compute_replacements and seek_sequence), which the models writing these patches
// are trained against: chunks are sought in file order, each at the first place at or after the end of the
// previous one where its lines fit, trying every place exactly before any place loosely. A patch that is
// right therefore always applies; one whose chunk fits only before the previous chunk's end is refused.
import type { MatchNote } from './editPlan';
import { type EditError, editError, placeLabel } from './errors';
import { closestText, numbered, quoted } from './excerpt';
import { MATCH_LEVELS, type MatchLevel, findLines } from './matchCascade';
import type { Splice } from './hunks';
import type { ChunkLine, PatchChunk } from './patchTypes';
import { reindent } from './reindent';
import { type Result, err, ok } from './result';

type Placed = { kind: 'found'; index: number; level: MatchLevel; variant: readonly ChunkLine[]; cursor: number };
type Failure =
  /** Nowhere at or after `from`; `earlier` is where the lines fit before it, if anywhere. */
  | { kind: 'none'; from: number; earlier?: number; overlapped: boolean }
  /** An `@@` line not found at or after `from`; `earlier` is where it occurs before it, if anywhere. */
  | { kind: 'no_context'; context: string; from: number; earlier?: number };

/**
 * The splices (sorted by position) that apply `chunks` to `lines`, and how each chunk was found. With
 * `open`, the last chunk may still be incomplete: if it cannot be placed yet it is left out, not refused.
 */
export function resolveChunks(
  path: string,
  chunks: readonly PatchChunk[],
  lines: readonly string[],
  open = false,
): Result<{ splices: Splice[]; matches: MatchNote[] }, EditError> {
  const splices: Splice[] = [];
  const matches: MatchNote[] = [];
  const claimed: Array<readonly [number, number]> = [];
  let cursor = 0;
  for (const [i, chunk] of chunks.entries()) {
    const number = i + 1;
    const placed = placeChunk(lines, chunk, cursor, claimed);
    if (placed.kind !== 'found') {
      if (open && i === chunks.length - 1) break;
      return err(chunkError(path, number, chunk, lines, cursor, placed));
    }
    const { index, level, variant } = placed;
    const old = variant.filter((l) => l.kind !== '+').map((l) => l.text);
    const found = lines.slice(index, index + old.length);
    const added = variant.filter((l) => l.kind === '+').map((l) => l.text);
    const moved = level === 'whitespace' || level === 'unicode' ? reindent(old, found, added) : undefined;
    const fresh = moved?.lines ?? added;
    const insert: string[] = [];
    let o = 0;
    let a = 0;
    for (const line of variant) {
      if (line.kind === ' ') insert.push(found[o++] as string);
      else if (line.kind === '-') o++;
      else insert.push(fresh[a++] as string);
    }
    splices.push({ start: index, deleteCount: old.length, insert });
    if (old.length > 0) claimed.push([index, index + old.length]);
    // As Codex: the next chunk is sought from the end of this one (or, for lines only added, from after
    // its @@ line, since they go to the end of the file and leave the cursor where the @@ line put it).
    cursor = old.length > 0 ? index + old.length : placed.cursor;
    matches.push({ chunk: number, level, line: index + 1, reindented: moved?.changed ?? false });
  }
  // A stable sort: splices at one point stay in chunk order.
  return ok({ splices: splices.sort((a, b) => a.start - b.start), matches });
}

/** The first place at or after `from` (up to `to`) where `pattern` fits, every place exactly first. */
function firstFit(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  to = lines.length,
): { index: number; level: MatchLevel } | undefined {
  for (const level of MATCH_LEVELS) {
    const [index] = findLines(lines, pattern, level, { from, to }, 1);
    if (index !== undefined) return { index, level };
  }
  return undefined;
}

/** A blank context line at the end of a chunk: often only the line break before the next section. */
const isBlankContext = (line: ChunkLine | undefined) => line?.kind === ' ' && line.text === '';

/**
 * Places one chunk: its `@@` lines in turn, each at its first occurrence at or after the cursor (the
 * search goes on after it), then its lines. Like Codex, a chunk whose lines are not found is tried again
 * without its trailing blank context lines; stray blank lines between sections are tried that way first
 * when they are all the chunk would match.
 */
function placeChunk(
  lines: readonly string[],
  chunk: PatchChunk,
  cursor: number,
  claimed: ReadonlyArray<readonly [number, number]>,
): Placed | Failure {
  let from = cursor;
  for (const context of chunk.contexts) {
    const at = firstFit(lines, [context], from);
    if (!at) return { kind: 'no_context', context, from, earlier: firstFit(lines, [context], 0, from - 1)?.index };
    from = at.index + 1;
  }
  let kept = chunk.lines.length;
  while (kept > 0 && isBlankContext(chunk.lines[kept - 1])) kept--;
  const trimmed = chunk.lines.slice(0, kept);
  const onlyBare = chunk.lines.every((l) => l.kind === '+' || l.bare);
  const variants =
    kept === chunk.lines.length ? [chunk.lines] : onlyBare ? [trimmed, chunk.lines] : [chunk.lines, trimmed];
  let first: Failure | undefined;
  for (const variant of variants) {
    const placed = placeLines(lines, chunk, variant, cursor, from, claimed);
    if (placed.kind === 'found') return placed;
    first ??= placed;
  }
  return first ?? { kind: 'none', from, overlapped: false };
}

function placeLines(
  lines: readonly string[],
  chunk: PatchChunk,
  variant: readonly ChunkLine[],
  cursor: number,
  from: number,
  claimed: ReadonlyArray<readonly [number, number]>,
): Placed | Failure {
  const pattern = variant.filter((l) => l.kind !== '+').map((l) => l.text);
  // Only added lines: Codex appends them at the end of the file, whatever @@ line came before.
  if (pattern.length === 0) return { kind: 'found', index: lines.length, level: 'exact', variant, cursor: from };
  if (chunk.endOfFile) {
    // Anchored at the end, as Codex: the lines must be the file's last ones, wherever the cursor is.
    const end = lines.length - pattern.length;
    const at = end < 0 ? undefined : firstFit(lines, pattern, end, end);
    if (!at) return { kind: 'none', from, overlapped: false };
    if (end < cursor) return { kind: 'none', from, earlier: end, overlapped: true };
    return { kind: 'found', ...at, variant, cursor: from };
  }
  const at = firstFit(lines, pattern, from);
  if (at) return { kind: 'found', ...at, variant, cursor: from };
  // Not after the previous chunk: where it fits before that chunk's end only changes what the model is told.
  const earlier = cursor > 0 ? firstFit(lines, pattern, 0, cursor - 1)?.index : undefined;
  const overlapped = earlier !== undefined && claimed.some(([s, e]) => earlier < e && earlier + pattern.length > s);
  return { kind: 'none', from, earlier, overlapped };
}

function chunkError(
  path: string,
  number: number,
  chunk: PatchChunk,
  lines: readonly string[],
  cursor: number,
  failure: Failure,
): EditError {
  const place = { path, chunk: number };
  const label = `${placeLabel(place)} (patch line ${chunk.line})`;
  const pattern = chunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
  const previous = `line ${cursor}, where chunk ${number - 1} ended`;
  const inOrder = `Chunks apply in file order, each after the one before: put this chunk before chunk ${number - 1}, or merge the two.`;
  if (failure.kind === 'no_context')
    return contextError({ label, previous, inOrder, path, lines, place }, failure, cursor);
  if (failure.overlapped) {
    return editError(
      'overlapping_chunks',
      `${label}: these lines were only found where another chunk of the same file already applies:\n${quoted(pattern)}\nMerge the two chunks into one.`,
      place,
    );
  }
  if (chunk.endOfFile) {
    const tail = Math.max(1, lines.length - pattern.length - 1);
    return editError(
      'no_match',
      `${label}: the chunk ends with *** End of File, but these are not the last lines of ${path}:\n${quoted(pattern)}\nThe file ends with (lines ${tail}-${lines.length}):\n${numbered(lines, tail, lines.length)}`,
      place,
    );
  }
  if (failure.earlier !== undefined) {
    return editError(
      'no_match',
      `${label}: these lines fit only before ${previous} (first at line ${failure.earlier + 1}):\n${quoted(pattern)}\n${inOrder}`,
      place,
    );
  }
  const where =
    failure.from > cursor
      ? ` after the @@ line '${chunk.contexts.at(-1) ?? ''}' (line ${failure.from})`
      : cursor > 0
        ? ` after ${previous}`
        : '';
  return editError(
    'no_match',
    `${label}: these lines were not found${where} in ${path}:\n${quoted(pattern)}\n${closestText(path, lines, pattern, failure.from)}\nCopy the lines exactly from the current file (re-read it if unsure) and retry.`,
    place,
  );
}

/** What chunkError says of every failure of a chunk: its label, the chunk before it, the file. */
interface ChunkPlace {
  label: string;
  previous: string;
  inOrder: string;
  path: string;
  lines: readonly string[];
  place: { path: string; chunk: number };
}

/** A chunk whose `@@` line was not found after the chunk before it: earlier in the file, or nowhere. */
function contextError(
  { label, previous, inOrder, path, lines, place }: ChunkPlace,
  failure: Extract<Failure, { kind: 'no_context' }>,
  cursor: number,
): EditError {
  if (failure.earlier !== undefined && failure.earlier < cursor) {
    return editError(
      'no_match',
      `${label}: the @@ line '${failure.context}' occurs only before ${previous} (first at line ${failure.earlier + 1}).\n${inOrder}`,
      place,
    );
  }
  return editError(
    'no_match',
    `${label}: the @@ line '${failure.context}' was not found${failure.from > 0 ? ` after line ${failure.from}` : ''} in ${path}.\n${closestText(path, lines, [failure.context], failure.from)}\nUse a line copied exactly from the file (a function or class signature), or a bare @@.`,
    place,
  );
}
