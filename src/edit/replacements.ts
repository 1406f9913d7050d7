// edit_file's old_string/new_string edits on a file's content (LF-joined). Each edit applies to the text
// the previous ones produced; all of them succeed or none is used. An edit is found by the cascade: exact
// text, then whole lines ignoring trailing whitespace, ignoring surrounding whitespace, and with Unicode
// punctuation normalised.
import { diffArrays } from 'diff';
import type { MatchNote } from './editPlan';
import type { Splice } from './hunks';
import { type EditError, editError, placeLabel } from './errors';
import { closestText, lineList, quoted } from './excerpt';
import { LEVEL_LABELS, type MatchLevel, findLines, normalisePunctuation } from './matchCascade';
import { reindent } from './reindent';
import { type Result, err, ok } from './result';

/** One edit of an edit_file call. */
export interface ReplacementEdit {
  old_string: string;
  new_string: string;
  /** Replace every match instead of requiring exactly one. */
  replace_all?: boolean;
}

/** The arguments of an edit_file call. */
export interface ReplacementsInput {
  path: string;
  edits: readonly ReplacementEdit[];
}

/** A stretch of the content and what replaces it. */
interface Span {
  start: number;
  end: number;
  text: string;
}

/** Where one edit matched, before its replacements are built. */
interface Found {
  level: MatchLevel;
  spans: Span[];
  /** Line-level matches get the file's own text for unchanged lines, so the replacement is already built. */
  reindented: boolean;
}

/** CRLF in the model's text is a line break like LF; nothing else is touched (a `\n` escape stays two characters). */
const lf = (text: string) => text.replace(/\r\n/g, '\n');

function lineOf(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) line++;
  return line;
}

/** Start offsets of `needle` in `haystack`; overlapping ones too unless `all` asks for a left-to-right replace. */
function occurrences(haystack: string, needle: string, all: boolean): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + (all ? needle.length : 1))) {
    found.push(i);
  }
  return found;
}

/** Whole-line matches of `oldText` at one of the loose levels, as spans whose text is already built. */
function lineMatches(content: string, oldText: string, newText: string, level: MatchLevel, all: boolean): Found {
  const lines = content.split('\n');
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; i++) {
    starts.push(at);
    at += (lines[i] as string).length + 1;
  }
  const strip = (text: string) => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const pattern = strip(oldText);
  const wanted = strip(newText);
  const spans: Span[] = [];
  let reindented = false;
  let next = 0;
  for (const index of findLines(lines, pattern, level, { from: 0, to: lines.length })) {
    if (all && index < next) continue;
    const found = lines.slice(index, index + pattern.length);
    const moved = level === 'whitespace' || level === 'unicode' ? reindent(pattern, found, wanted) : undefined;
    const fresh = moved?.lines ?? wanted;
    reindented ||= moved?.changed ?? false;
    // Lines the edit keeps stay as the file has them; changed and added lines are the model's.
    const out: string[] = [];
    let o = 0;
    let n = 0;
    for (const change of diffArrays(pattern, wanted)) {
      if (change.removed) o += change.count;
      else if (change.added) for (let k = 0; k < change.count; k++) out.push(fresh[n++] as string);
      else for (let k = 0; k < change.count; k++, n++) out.push(found[o++] as string);
    }
    const last = index + pattern.length - 1;
    spans.push({
      start: starts[index] ?? 0,
      end: (starts[last] ?? 0) + (lines[last] as string).length,
      text: out.join('\n'),
    });
    next = index + pattern.length;
  }
  return { level, spans, reindented };
}

/** The strictest level at which `oldText` occurs, and where; undefined when it occurs nowhere. */
function findEdit(content: string, oldText: string, newText: string, all: boolean): Found | undefined {
  const at = (level: MatchLevel, starts: number[]): Found => ({
    level,
    spans: starts.map((start) => ({ start, end: start + oldText.length, text: newText })),
    reindented: false,
  });
  const exact = occurrences(content, oldText, all);
  if (exact.length > 0) return at('exact', exact);
  for (const level of ['trailing_whitespace', 'whitespace', 'unicode'] as const) {
    if (level === 'unicode') {
      // Punctuation maps one unit to one, so offsets in the normalised text are offsets in the real one.
      const loose = occurrences(normalisePunctuation(content), normalisePunctuation(oldText), all);
      if (loose.length > 0) return at(level, loose);
    }
    const found = lineMatches(content, oldText, newText, level, all);
    if (found.spans.length > 0) return found;
  }
  return undefined;
}

/** The file while edits apply: its content string, its lines, and for each line the original it still is (-1: new). */
export interface Working {
  content: string;
  lines: readonly string[];
  origin: readonly number[];
}

/** The state before any edit: `lines` of a file whose content string is `content`. */
export function startWorking(content: string, lines: readonly string[]): Working {
  return { content, lines, origin: lines.map((_, i) => i) };
}

/** The lines of a run of whole lines of content: one final LF, if any, ends the last line. */
function blockLines(block: string): string[] {
  if (block === '') return [];
  return (block.endsWith('\n') ? block.slice(0, -1) : block).split('\n');
}

/** `working` with `spans` (sorted, not overlapping) replaced; the lines they touch are replaced whole. */
function applySpans(working: Working, spans: readonly Span[]): Working {
  const { content, lines, origin } = working;
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; i++) {
    starts.push(at);
    at += (lines[i] as string).length + 1;
  }
  const lineAt = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  };
  // Spans that touch the same lines form one group: its lines are rewritten together.
  const groups: Array<{ first: number; last: number; from: number; to: number; shift: number }> = [];
  let next = '';
  let at = 0;
  let shift = 0;
  for (const span of spans) {
    next += content.slice(at, span.start) + span.text;
    at = span.end;
    const first = lineAt(span.start);
    const last = lineAt(span.end);
    const group = groups.at(-1);
    const before = shift;
    shift += span.text.length - (span.end - span.start);
    if (group && first <= group.last) {
      group.last = Math.max(group.last, last);
      group.shift = shift;
    } else {
      groups.push({ first, last, from: before, to: 0, shift });
    }
  }
  next += content.slice(at);
  let outLines = lines.slice();
  let outOrigin = origin.slice();
  for (const group of [...groups].reverse()) {
    const regionStart = starts[group.first] ?? 0;
    const regionEnd = group.last + 1 < starts.length ? (starts[group.last + 1] as number) : content.length;
    const fresh = blockLines(next.slice(regionStart + group.from, regionEnd + group.shift));
    const count = lines.length === 0 ? 0 : group.last - group.first + 1;
    outLines = outLines.slice(0, group.first).concat(fresh, outLines.slice(group.first + count));
    outOrigin = outOrigin.slice(0, group.first).concat(
      fresh.map(() => -1),
      outOrigin.slice(group.first + count),
    );
  }
  return { content: next, lines: outLines, origin: outOrigin };
}

/** The splices (in the original lines) that the edits made, read off which original lines survived. */
export function splicesOf(working: Working, originalCount: number): Splice[] {
  const splices: Splice[] = [];
  let o = 0;
  let i = 0;
  while (i < working.lines.length) {
    if (working.origin[i] === o) {
      o++;
      i++;
      continue;
    }
    const insert: string[] = [];
    while (i < working.lines.length && working.origin[i] === -1) insert.push(working.lines[i++] as string);
    const resume = i < working.lines.length ? (working.origin[i] as number) : originalCount;
    splices.push({ start: o, deleteCount: resume - o, insert });
    o = resume;
  }
  if (o < originalCount) splices.push({ start: o, deleteCount: originalCount - o, insert: [] });
  return splices;
}

/** The state after one edit, or why it cannot apply. */
export type EditStep = Result<{ working: Working; match: MatchNote }, EditError>;

/**
 * Applies edit number `index` (0-based) to `working`. With `pending` (the last edit, still streaming) a
 * failure is reported as undefined rather than an error.
 */
export function applyEdit(
  path: string,
  working: Working,
  edit: ReplacementEdit,
  index: number,
  pending: boolean,
): EditStep | undefined {
  const place = { path, edit: index + 1 };
  const text = working.content;
  const oldText = lf(edit.old_string);
  const newText = lf(edit.new_string);
  const after = index > 0 ? ` (after edits 1-${index})` : '';
  if (oldText === '') {
    if (text !== '') {
      if (pending) return undefined;
      return err(
        editError(
          'invalid_edit',
          `${placeLabel(place)}: old_string is empty, but ${path} is not; give the text to replace (an empty old_string only creates a file or fills an empty one).`,
          place,
        ),
      );
    }
    const filled = applySpans(working, [{ start: 0, end: 0, text: newText }]);
    return ok({ working: filled, match: { edit: index + 1, level: 'exact', line: 1, reindented: false } });
  }
  const found = findEdit(text, oldText, newText, edit.replace_all === true);
  if (!found) {
    if (pending) return undefined;
    const pattern = oldText.replace(/\n$/, '').split('\n');
    return err(
      editError(
        'no_match',
        `${placeLabel(place)}: old_string was not found in ${path}${after}:\n${quoted(pattern)}\n${closestText(path, working.lines, pattern)}\nCopy old_string exactly from the current file (re-read it if unsure) and retry.`,
        place,
      ),
    );
  }
  if (found.spans.length > 1 && edit.replace_all !== true && oldText !== newText) {
    if (pending) return undefined;
    const lines = found.spans.map((span) => lineOf(text, span.start) - 1);
    const how = found.level === 'exact' ? '' : ` (${LEVEL_LABELS[found.level]})`;
    return err(
      editError(
        'ambiguous_match',
        `${placeLabel(place)}: old_string matches ${lines.length} places in ${path}${how}${after}, at ${lineList(lines.slice(0, 6), lines.length)}. Include more surrounding lines so it matches one place, or set replace_all to true to change every one.`,
        place,
      ),
    );
  }
  const line = lineOf(text, found.spans[0]?.start ?? 0);
  const match = { edit: index + 1, level: found.level, line, reindented: found.reindented };
  // An edit that changes nothing (old_string equal to new_string) leaves the lines as they are.
  if (oldText === newText) return ok({ working, match });
  return ok({ working: applySpans(working, found.spans), match });
}

/** Edits already applied to one start state, kept while a call streams so each delta redoes only the new edits. */
export interface EditMemo {
  start: Working;
  steps: Array<{ edit: ReplacementEdit; working: Working; match: MatchNote }>;
}

const sameEdit = (a: ReplacementEdit, b: ReplacementEdit | undefined) =>
  b !== undefined &&
  a.old_string === b.old_string &&
  a.new_string === b.new_string &&
  (a.replace_all === true) === (b.replace_all === true);

/**
 * Applies `edits` in order from `start`. With `open`, the last edit is still being written: if it cannot
 * be placed yet it is skipped instead of refused. A `memo` for the same start replays the edits it holds.
 */
export function applyEdits(
  path: string,
  start: Working,
  edits: readonly ReplacementEdit[],
  open = false,
  memo?: EditMemo,
): Result<{ working: Working; matches: MatchNote[] }, EditError> {
  const settled = open ? edits.length - 1 : edits.length;
  let working = start;
  const matches: MatchNote[] = [];
  let i = 0;
  if (memo && memo.start === start) {
    while (i < settled && i < memo.steps.length && sameEdit(memo.steps[i]?.edit as ReplacementEdit, edits[i])) {
      const step = memo.steps[i] as EditMemo['steps'][number];
      working = step.working;
      matches.push(step.match);
      i++;
    }
    memo.steps.length = i;
  }
  for (; i < edits.length; i++) {
    const edit = edits[i] as ReplacementEdit;
    const step = applyEdit(path, working, edit, i, i >= settled);
    if (!step) break;
    if (!step.ok) return step;
    working = step.value.working;
    matches.push(step.value.match);
    if (memo && memo.start === start && i < settled) memo.steps.push({ edit, working, match: step.value.match });
  }
  return ok({ working, matches });
}
