import stringWidth from 'string-width';

// What fits in a terminal row, counted in columns as the terminal draws them: a Chinese character or an
// emoji takes two, a combining mark none. Counted in characters, a line of Chinese ran past the row's end
// and the terminal wrapped it, breaking the prompt row's redraw (it erases one row).

/** `text` as it fits in `columns`: whole where it does, else `…` and as much of its end as fits. */
export function fitTail(text: string, columns: number): string {
  if (stringWidth(text) <= columns) return text;
  const room = columns - 1; // the ellipsis's column
  let used = 0;
  let start = text.length;
  for (const char of [...text].reverse()) {
    const width = stringWidth(char);
    if (used + width > room) break;
    used += width;
    start -= char.length;
  }
  return `…${text.slice(start)}`;
}
