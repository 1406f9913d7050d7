/** Longest line text a search result carries; longer lines are clipped around the match, marked with "…". */
export const MAX_MATCH_LINE = 240;

/** A matched line for a model: without its line ending, clipped around the match when very long. */
export function clipLine(line: string, matchIndex: number): string {
  const text = line.replace(/\r$/, '');
  if (text.length <= MAX_MATCH_LINE) return text;
  const start = Math.max(0, Math.min(matchIndex - 40, text.length - MAX_MATCH_LINE));
  const end = start + MAX_MATCH_LINE;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** Sorts matches by path, then line: both search engines give the same order. */
export function byPathThenLine(a: { path: string; line: number }, b: { path: string; line: number }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
}

/** How many matches a search collects before it stops counting (the total is then a lower bound). */
export const SEARCH_COUNT_LIMIT = 10_000;
