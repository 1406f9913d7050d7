// Which lines a selection covers, as people count them (plain: tested without VS Code).

/**
 * The 1-based lines a selection covers. One that ends at column 0 of a line (whole lines selected, the
 * usual way with the mouse or Shift+Down) takes none of that line.
 */
export function selectedLines(selection: {
  start: { line: number; character: number };
  end: { line: number; character: number };
}): { first: number; last: number } {
  const { start, end } = selection;
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  return { first: start.line + 1, last: last + 1 };
}
