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

/** Forgets the last Enter or mouseup noted, so that the next one is noted (the probe installed first). */
export async function armInput(page: Page, name: typeof ENTER | typeof MOUSEUP): Promise<void> {
  await page.evaluate(INSTALL);
  await page.evaluate(`delete (window.loopwireMarks ??= {})[${JSON.stringify(name)}]`);
}
