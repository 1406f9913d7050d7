import type { ContextMatch } from '../../../protocol/chatView';

// The `@` picker's ranking, as Quick Open ranks: the query's characters in order anywhere in the path,
// better where they fall in the file's own name, at the start of a word, and one after another. Plain: tested
// without VS Code.

/** What the picker shows at most. */
export const MAX_MATCHES = 30;

/** A path's score for `query` (lower-cased, no spaces), or undefined when its characters are not all there. */
export function fuzzyScore(path: string, query: string): number | undefined {
  if (query === '') return 0;
  const lower = path.toLowerCase();
  const nameStart = lower.lastIndexOf('/', lower.length - 2) + 1;
  // Matched from the start of the path, and (better, where it fits) within the file's own name alone.
  const whole = alignment(lower, query, 0, nameStart);
  if (whole === undefined) return undefined;
  const inName = alignment(lower, query, nameStart, nameStart);
  let score = Math.max(whole, inName ?? 0);
  // The whole query in the name, and a short path, go first among equals.
  if (lower.slice(nameStart).includes(query)) score += 10;
  return score * 1000 - path.length;
}

/** The score of the query's characters found in order from `from`, each as early as it can be. */
function alignment(lower: string, query: string, from: number, nameStart: number): number | undefined {
  let score = 0;
  let previous = -2;
  for (const char of query) {
    const at = lower.indexOf(char, from);
    if (at < 0) return undefined;
    score += 1;
    if (at === previous + 1) score += 5;
    if (at >= nameStart) score += 2;
    const before = lower[at - 1];
    if (at === 0 || at === nameStart || before === '/' || before === '.' || before === '-' || before === '_')
      score += 3;
    previous = at;
    from = at + 1;
  }
  return score;
}

/**
 * The files and folders (each file's folders) that match `query`, best first, at most `limit`. An empty query
 * gives the first files as listed (the search's order) and no folders.
 */
export function fuzzyPaths(files: readonly string[], query: string, limit = MAX_MATCHES): ContextMatch[] {
  const wanted = query.toLowerCase().replace(/\s+/g, '');
  if (wanted === '') return files.slice(0, limit).map((path) => ({ kind: 'file', path }));
  const folders = new Set<string>();
  for (const file of files)
    for (let slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1))
      folders.add(file.slice(0, slash));
  const scored: { match: ContextMatch; score: number }[] = [];
  const consider = (kind: ContextMatch['kind'], path: string) => {
    const score = fuzzyScore(path, wanted);
    if (score !== undefined) scored.push({ match: { kind, path }, score });
  };
  for (const file of files) consider('file', file);
  for (const folder of folders) consider('folder', folder);
  return scored
    .sort((a, b) => b.score - a.score || a.match.path.localeCompare(b.match.path))
    .slice(0, limit)
    .map((entry) => entry.match);
}
