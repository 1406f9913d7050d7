import type { Page } from 'playwright-core';

// When the user's own input reached the workbench's page: a listener on the window (capture phase, before
// any of the workbench's own) notes performance.now() of the first Enter keydown and the first mouseup after
// it is armed, in `window.loopwireMarks` beside the moments inlineLensProbe.ts notes, on the same clock. So
// Enter → first changed line and a lens click → the lenses after it are read in the page, not through the
// harness's round trips. (A mouseup: Monaco runs a lens's command and the action list its item on the button's
// release; the press before it is the harness's, a round trip earlier.)

/** The marks this probe writes. */
export const ENTER = 'input:enter';
export const MOUSEUP = 'input:mouseup';

/** Installs the listeners once per page (again after a reload); a no-op when they are there. */
const INSTALL = `(() => {
  if (window.loopwireInputProbe) return;
  window.loopwireInputProbe = true;
  const marks = (window.loopwireMarks ??= {});
  const note = (name) => { if (marks[name] === undefined) marks[name] = performance.now(); };
  window.addEventListener('keydown', (event) => { if (event.key === 'Enter') note(${JSON.stringify(ENTER)}); }, true);
  window.addEventListener('mouseup', () => note(${JSON.stringify(MOUSEUP)}), true);
})()`;

/**
 * Notes as `name` the moment a line of the active editor reads `line` exactly (nbsp as spaces): the changed
 * line itself, where inlineLensProbe.ts's snippets see the text of all lines run together, in no order.
 */
const NOTE_LINE = `(({ name, line }) => {
  const marks = (window.loopwireMarks ??= {});
  delete marks[name];
  const editor = () => document.querySelector('.part.editor .editor-group-container.active .monaco-editor');
  const holds = () =>
    [...(editor()?.querySelectorAll('.view-lines .view-line') ?? [])].some(
      (el) => (el.textContent ?? '').replace(/\u00a0/g, ' ') === line,
    );
  const check = () => {
    if (marks[name] !== undefined || !holds()) return;
    marks[name] = performance.now();
    observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  check();
})`;

/** Starts noting when a line of the active editor reads `line` (a moment noted before as `name` is forgotten). */
export async function noteLine(page: Page, name: string, line: string): Promise<void> {
  await page.evaluate(`${NOTE_LINE}(${JSON.stringify({ name, line })})`);
}

/** Forgets the last Enter or mouseup noted, so that the next one is noted (the probe installed first). */
export async function armInput(page: Page, name: typeof ENTER | typeof MOUSEUP): Promise<void> {
  await page.evaluate(INSTALL);
  await page.evaluate(`delete (window.loopwireMarks ??= {})[${JSON.stringify(name)}]`);
}
