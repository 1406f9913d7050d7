import type { Page } from 'playwright-core';

// When the editor showed what: a MutationObserver in the workbench's page notes the moment (performance.now(),
// the page's clock) a condition first holds, so that the time from an inline edit's last line to its Keep /
// Undo actions is read at the frame it happened, not at the test's polling interval. Conditions are data (no
// code is evaluated in the page: its CSP has no `unsafe-eval`).

/**
 * The page's side, as source (the suite's TypeScript has no DOM types): the active editor's inline actions,
 * top first. Each is a label at the end of a line (`Keep Ctrl+Y · Undo Ctrl+N`: a decoration's `::after`
 * content, on a `ced-…` span) read as its titles, with where its line's text is (to hover it); or a CodeLens
 * (where inlay hints are off), a title each.
 */
export const ACTIONS_IN_PAGE = `(() => {
  const editor = document.querySelector('.part.editor .editor-group-container.active .monaco-editor');
  const title = /^(?:Keep|Undo)(?: All)?$|^Loopwire is editing/;
  const rows = [];
  for (const a of editor?.querySelectorAll('.codelens-decoration a') ?? []) {
    const box = a.getBoundingClientRect();
    rows.push({ titles: [(a.textContent ?? '').replace(/\\u00a0/g, ' ')], x: box.x + box.width / 2, y: box.y + box.height / 2, lens: true });
  }
  for (const span of editor?.querySelectorAll('.view-lines span[class*="ced-"]') ?? []) {
    const content = getComputedStyle(span, '::after').content;
    if (!content || !content.startsWith('"')) continue;
    const label = content.slice(1, -1).replace(/\\\\(.)/g, '$1');
    const titles = label.split(' · ').map((part) => part.replace(/ (?:Ctrl|⌘|⌥)\\S*$/, ''));
    if (!titles.every((t) => title.test(t))) continue;
    const line = span.closest('.view-line')?.getBoundingClientRect();
    const box = span.getBoundingClientRect();
    if (!line) continue;
    // The middle of the line's own text (its hover has the actions' links), left of the label.
    rows.push({ titles, x: line.x + Math.max(4, Math.min(60, (box.x - line.x) / 2)), y: box.y + box.height / 2, lens: false });
  }
  return rows.sort((a, b) => a.y - b.y || a.x - b.x);
})()`;

/** An inline action row as the page reads it: its titles, and where to hover (a label) or click (a lens). */
export interface ActionRow {
  titles: string[];
  x: number;
  y: number;
  lens: boolean;
}

/** The active editor's inline action rows, top first. */
export function actionRows(page: Page): Promise<ActionRow[]> {
  return page.evaluate<ActionRow[]>(ACTIONS_IN_PAGE);
}

/** What to wait for in the active editor: its text to include a snippet, or its actions to be these titles. */
export type Shown = { text: string } | { lenses: string[] } | { noText: string };

type Marks = Record<string, number>;

/** Notes `performance.now()` in `window.loopwireMarks[name]` the first time `shown` holds in the active editor. */
const NOTE_WHEN = `(({ name, shown }) => {
  const marks = (window.loopwireMarks ??= {});
  delete marks[name];
  const editor = () => document.querySelector('.part.editor .editor-group-container.active .monaco-editor');
  const text = () => (editor()?.querySelector('.view-lines')?.textContent ?? '').replace(/\\u00a0/g, ' ');
  const actions = () => ${ACTIONS_IN_PAGE}.flatMap((row) => row.titles).sort().join('|');
  const holds = () =>
    'text' in shown ? text().includes(shown.text)
    : 'noText' in shown ? !text().includes(shown.noText)
    : actions() === [...shown.lenses].sort().join('|');
  const check = () => {
    if (marks[name] !== undefined || !holds()) return;
    marks[name] = performance.now();
    observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  check();
})`;

/** Starts noting when `shown` first holds, as `name` (a moment noted before under that name is forgotten). */
export async function noteWhen(page: Page, name: string, shown: Shown): Promise<void> {
  await page.evaluate(`${NOTE_WHEN}(${JSON.stringify({ name, shown })})`);
}

/** The page's clock now. */
export function pageNow(page: Page): Promise<number> {
  return page.evaluate<number>('performance.now()');
}

/** The moment noted as `name`, once it is. */
export async function noted(page: Page, name: string): Promise<number | undefined> {
  const marks = await page.evaluate<Marks>('window.loopwireMarks ?? {}');
  return marks[name];
}
