import type { Page } from 'playwright-core';

// When the editor showed what: a MutationObserver in the workbench's page notes the moment (performance.now(),
// the page's clock) a condition first holds, so that the time from an inline edit's last line to its Keep /
// Undo lenses is read at the frame it happened, not at the test's polling interval. Conditions are data (no
// code is evaluated in the page: its CSP has no `unsafe-eval`).

/** What to wait for in the active editor: its text to include a snippet, or its lenses to be these titles. */
export type Shown = { text: string } | { lenses: string[] } | { noText: string };

type Marks = Record<string, number>;

/**
 * The page's side, as source (the suite's TypeScript has no DOM types): notes `performance.now()` in
 * `window.loopwireMarks[name]` the first time `shown` holds in the active editor.
 */
const NOTE_WHEN = `(({ name, shown }) => {
  const marks = (window.loopwireMarks ??= {});
  delete marks[name];
  const editor = () => document.querySelector('.part.editor .editor-group-container.active .monaco-editor');
  const text = () => (editor()?.querySelector('.view-lines')?.textContent ?? '').replace(/\u00a0/g, ' ');
  const lenses = () =>
    [...(editor()?.querySelectorAll('.codelens-decoration a') ?? [])].map((a) => a.textContent ?? '').sort().join('|');
  const holds = () =>
    'text' in shown ? text().includes(shown.text)
    : 'noText' in shown ? !text().includes(shown.noText)
    : lenses() === [...shown.lenses].sort().join('|');
  const check = () => {
    if (marks[name] !== undefined || !holds()) return;
    marks[name] = performance.now();
    observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
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
