// The matching cascade: the same lines compared ever more loosely. Each level is tried only when every
// stricter level found nothing. edit_file needs its one place (a level that finds several is ambiguous: a
// looser one would only find more); apply_patch takes the first place after the previous chunk, as Codex.

/** How loosely a match was found, strictest first. */
export type MatchLevel = 'exact' | 'trailing_whitespace' | 'whitespace' | 'unicode';

/** The levels in the order they are tried. */
export const MATCH_LEVELS: readonly MatchLevel[] = ['exact', 'trailing_whitespace', 'whitespace', 'unicode'];

/** How each level reads in a message to the model. */
export const LEVEL_LABELS: Readonly<Record<MatchLevel, string>> = {
  exact: 'exactly',
  trailing_whitespace: 'ignoring trailing whitespace',
  whitespace: 'ignoring leading and trailing whitespace',
  unicode: 'ignoring whitespace and Unicode punctuation (curly quotes, dashes, unusual spaces)',
};

/**
 * Typographic characters a model usually writes as ASCII, one UTF-16 unit each to one ASCII character, so a
 * normalised string has the original's length and offsets into it are offsets into the original.
 */
const PUNCTUATION: ReadonlyMap<string, string> = new Map([
  ...[...'\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uFE58\uFE63\uFF0D'].map((c) => [c, '-'] as const),
  ...[...'\u2018\u2019\u201A\u201B\u2032\uFF07'].map((c) => [c, "'"] as const),
  ...[...'\u201C\u201D\u201E\u201F\u2033\uFF02'].map((c) => [c, '"'] as const),
  ...[...'\u00A0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000'].map(
    (c) => [c, ' '] as const,
  ),
]);
const PUNCTUATION_PATTERN = new RegExp(`[${[...PUNCTUATION.keys()].join('')}]`, 'g');

/** Replaces typographic punctuation and unusual spaces by their ASCII look-alikes; the length is kept. */
export function normalisePunctuation(text: string): string {
  return text.replace(PUNCTUATION_PATTERN, (c) => PUNCTUATION.get(c) ?? c);
}

/** A line as the given level compares it. */
export function normaliseLine(line: string, level: MatchLevel): string {
  switch (level) {
    case 'exact':
      return line;
    case 'trailing_whitespace':
      return line.trimEnd();
    case 'whitespace':
      return line.trim();
    case 'unicode':
      return normalisePunctuation(line).trim();
  }
}

/** A file's lines as one level compares them, and where each distinct line occurs (ascending). */
interface LevelIndex {
  lines: readonly string[];
  positions: Map<string, number[]>;
}

/** Built once per lines array and level: previews match the same snapshot again and again. */
const indexCache = new WeakMap<readonly string[], Map<MatchLevel, LevelIndex>>();

function indexFor(lines: readonly string[], level: MatchLevel): LevelIndex {
  let perLevel = indexCache.get(lines);
  if (!perLevel) {
    perLevel = new Map();
    indexCache.set(lines, perLevel);
  }
  let index = perLevel.get(level);
  if (!index) {
    const normalised = level === 'exact' ? lines : lines.map((line) => normaliseLine(line, level));
    const positions = new Map<string, number[]>();
    normalised.forEach((line, i) => {
      const list = positions.get(line);
      if (list) list.push(i);
      else positions.set(line, [i]);
    });
    index = { lines: normalised, positions };
    perLevel.set(level, index);
  }
  return index;
}

/** Where to look: start positions from `from` to `to` inclusive (0-based line indices). */
export interface SearchRange {
  from: number;
  to: number;
}

/** The first index in the ascending `list` that is at least `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Every start index in `range` at which `pattern` matches `lines` at `level`, at most `limit` of them.
 * An empty pattern matches nowhere (callers place pure insertions themselves).
 */
export function findLines(
  lines: readonly string[],
  pattern: readonly string[],
  level: MatchLevel,
  range: SearchRange,
  limit = Infinity,
): number[] {
  const found: number[] = [];
  if (pattern.length === 0) return found;
  const { lines: haystack, positions } = indexFor(lines, level);
  const needle = pattern.map((line) => normaliseLine(line, level));
  const starts = positions.get(needle[0] as string) ?? [];
  const last = Math.min(range.to, lines.length - needle.length);
  for (let k = lowerBound(starts, Math.max(0, range.from)); k < starts.length && found.length < limit; k++) {
    const start = starts[k] as number;
    if (start > last) break;
    let i = 1;
    while (i < needle.length && haystack[start + i] === needle[i]) i++;
    if (i === needle.length) found.push(start);
  }
  return found;
}
