// Finds where each chunk of an `*** Update File` section goes and what replaces it. Chunks are sought in
// order from where the previous one ended; one found nowhere after it is sought in the whole file (chunks
// out of order), still required to be unique and not to overlap another chunk.
import type { MatchNote } from './editPlan';
import { type EditError, editError, placeLabel } from './errors';
import { closestText, lineList, numbered, quoted } from './excerpt';
import { LEVEL_LABELS, MATCH_LEVELS, type MatchLevel, findLines } from './matchCascade';
import type { Splice } from './hunks';
import type { ChunkLine, PatchChunk } from './patchTypes';
import { reindent } from './reindent';
import { type Result, err, ok } from './result';

type Located =
  | { kind: 'found'; index: number; level: MatchLevel }
  | { kind: 'ambiguous'; indices: number[]; level: MatchLevel }
  | { kind: 'none'; overlapped: boolean }
  | { kind: 'no_context'; context: string };

const unique = (items: readonly number[]) => [...new Set(items)].sort((a, b) => a - b);

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
  const claimed: Array<readonly [number, number]> = [];
  const matches: MatchNote[] = [];
  let cursor = 0;
  for (const [i, chunk] of chunks.entries()) {
    const number = i + 1;
    const located = placeChunk(lines, chunk, cursor, claimed);
    if (located.kind !== 'found') {
      if (open && i === chunks.length - 1) break;
      return err(chunkError(path, number, chunk, lines, cursor, located));
    }
    const { index, level, variant } = located;
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
    cursor = Math.max(cursor, index + old.length);
    matches.push({ chunk: number, level, line: index + 1, reindented: moved?.changed ?? false });
  }
  // A stable sort: splices at one point stay in chunk order.
  return ok({ splices: splices.sort((a, b) => a.start - b.start), matches });
}

type Placed = { kind: 'found'; index: number; level: MatchLevel; variant: readonly ChunkLine[] };
type Failure = Exclude<Located, { kind: 'found' }>;

/**
 * Tries the chunk as written and without its trailing bare blank lines (stray blank lines between
 * sections; tried first when they are all the chunk would match), each from `cursor`, then from the top.
 */
function placeChunk(
  lines: readonly string[],
  chunk: PatchChunk,
  cursor: number,
  claimed: ReadonlyArray<readonly [number, number]>,
): Placed | Failure {
  let kept = chunk.lines.length;
  while (kept > 0 && chunk.lines[kept - 1]?.bare) kept--;
  const trimmed = chunk.lines.slice(0, kept);
  const onlyBare = chunk.lines.every((l) => l.kind === '+' || l.bare);
  const variants =
    kept === chunk.lines.length ? [chunk.lines] : onlyBare ? [trimmed, chunk.lines] : [chunk.lines, trimmed];
  let first: Failure | undefined;
  for (const variant of variants) {
    for (const from of cursor > 0 ? [cursor, 0] : [0]) {
      const located = locate(lines, chunk, variant, from, claimed);
      if (located.kind === 'found') return { ...located, variant };
      if (located.kind === 'ambiguous') return located;
      first ??= located;
    }
  }
  return first ?? { kind: 'none', overlapped: false };
}

function overlaps(claimed: ReadonlyArray<readonly [number, number]>, start: number, length: number): boolean {
  const end = start + length;
  return claimed.some(([s, e]) => (length === 0 ? start > s && start < e : start < e && end > s));
}

/** The lines each `@@` context line leads to (0-based), or the first context line not found. */
function anchorsFor(lines: readonly string[], contexts: readonly string[], from: number): number[] | string {
  let anchors: number[] | undefined;
  for (const context of contexts) {
    let next: number[] = [];
    for (const level of MATCH_LEVELS) {
      next = anchors
        ? unique(anchors.flatMap((a) => findLines(lines, [context], level, { from: a + 1, to: lines.length }, 1)))
        : findLines(lines, [context], level, { from, to: lines.length });
      if (next.length > 0) break;
    }
    if (next.length === 0) return context;
    anchors = next;
  }
  return anchors ?? [];
}

function locate(
  lines: readonly string[],
  chunk: PatchChunk,
  variant: readonly ChunkLine[],
  from: number,
  claimed: ReadonlyArray<readonly [number, number]>,
): Located {
  const anchors = chunk.contexts.length > 0 ? anchorsFor(lines, chunk.contexts, from) : undefined;
  if (typeof anchors === 'string') return { kind: 'no_context', context: anchors };
  const pattern = variant.filter((l) => l.kind !== '+').map((l) => l.text);
  const free = (index: number) => !overlaps(claimed, index, pattern.length);
  if (pattern.length === 0) {
    // Only added lines: right after the @@ line, or at the end of the file.
    const points = anchors && !chunk.endOfFile ? anchors.map((a) => a + 1) : [lines.length];
    const open = points.filter(free);
    if (open.length === 1) return { kind: 'found', index: open[0] as number, level: 'exact' };
    if (open.length > 1) return { kind: 'ambiguous', indices: anchors ?? [], level: 'exact' };
    return { kind: 'none', overlapped: points.length > 0 };
  }
  let overlapped = false;
  for (const level of MATCH_LEVELS) {
    let found: number[];
    if (chunk.endOfFile) {
      const end = lines.length - pattern.length;
      found = end < 0 ? [] : findLines(lines, pattern, level, { from: end, to: end });
    } else if (anchors) {
      found = unique(
        anchors.flatMap((a) => findLines(lines, pattern, level, { from: a + 1, to: lines.length }).find(free) ?? []),
      );
    } else {
      found = findLines(lines, pattern, level, { from, to: lines.length });
    }
    const open = found.filter(free);
    if (open.length === 1) return { kind: 'found', index: open[0] as number, level };
    if (open.length > 1) return { kind: 'ambiguous', indices: open, level };
    overlapped ||= found.length > 0;
  }
  return { kind: 'none', overlapped };
}

function chunkError(
  path: string,
  number: number,
  chunk: PatchChunk,
  lines: readonly string[],
  cursor: number,
  located: Failure,
): EditError {
  const place = { path, chunk: number };
  const label = `${placeLabel(place)} (patch line ${chunk.line})`;
  const pattern = chunk.lines.filter((l) => l.kind !== '+').map((l) => l.text);
  switch (located.kind) {
    case 'no_context':
      return editError(
        'no_match',
        `${label}: the @@ line '${located.context}' was not found in ${path}.\n${closestText(path, lines, [located.context], cursor)}\nUse a line copied exactly from the file (a function or class signature), or a bare @@.`,
        place,
      );
    case 'ambiguous': {
      const how = located.level === 'exact' ? '' : ` (${LEVEL_LABELS[located.level]})`;
      const what = pattern.length === 0 ? `the @@ line '${chunk.contexts.at(-1) ?? ''}'` : 'these lines';
      return editError(
        'ambiguous_match',
        `${label}: ${what} match ${located.indices.length} places${how}, at ${lineList(located.indices.slice(0, 6), located.indices.length)}:\n${quoted(pattern.length === 0 ? chunk.contexts : pattern)}\nAdd unchanged lines around the change, or an @@ line naming the enclosing function or class, so the chunk matches one place.`,
        place,
      );
    }
    case 'none': {
      if (located.overlapped) {
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
      const anchors = chunk.contexts.length > 0 ? anchorsFor(lines, chunk.contexts, cursor) : undefined;
      const anchor = Array.isArray(anchors) ? anchors[0] : undefined;
      const from = anchor !== undefined ? anchor + 1 : cursor;
      const where =
        anchor !== undefined
          ? ` after the @@ line '${chunk.contexts.at(-1) ?? ''}' (line ${anchor + 1})`
          : cursor > 0
            ? ` after line ${cursor} (where chunk ${number - 1} ended), nor anywhere else,`
            : '';
      return editError(
        'no_match',
        `${label}: these lines were not found${where} in ${path}:\n${quoted(pattern)}\n${closestText(path, lines, pattern, from)}\nCopy the lines exactly from the current file (re-read it if unsure) and retry.`,
        place,
      );
    }
  }
}
