import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { actionTitles, hoverAction, inlineTitles, useInlineWorkbench } from './inlineWorkbench';
import { ARTIFACTS, until } from './workbench';

// A click on a stale Keep or Undo of an inline edit (issue 47, item 2), in the real workbench: a link drawn for
// a hunk since kept, or for an edit since taken back with Ctrl+Z, does what it says or nothing visible, never
// acts on another hunk. A hover drawn before the change is what a user clicks when the hover stayed open (or the
// window was slow to draw the new one): here the link's address (its command and arguments, as the extension
// wrote them) is read from the hover at the time, and later clicked in a hover shown now, so that the click
// carries exactly what the stale link carried. Screenshots in test-artifacts/workbench/inline-stale/.

const STALE_ARTIFACTS = path.join(ARTIFACTS, 'inline-stale');
const ALL = ['Keep All', 'Undo All', 'Keep', 'Undo', 'Keep', 'Undo'];
/** The edit "say what each function returns" (inlineWorkbench.ts): lineTotal's comment, then cartTotal's. */
const FIRST_OLD = '/** The price of one line of the cart, in cents. */';
const FIRST_NEW = '(price times quantity)';
const SECOND_OLD = "/** The cart's total in cents: every line, then the discount. */";
const SECOND_NEW = 'every line summed, then the discount taken off';

/** The address of the link `title` in the hover of its hunk's line (the first hunk's for Keep and Undo). */
async function linkOf(page: Page, title: string): Promise<string> {
  const link = await hoverAction(page, title);
  if (!link) throw new Error(`${title} is a lens here, not a link`);
  const href = await link.getAttribute('data-href');
  if (!href?.startsWith('command:')) throw new Error(`${title}'s link has no command: ${String(href)}`);
  await page.mouse.move(1, 1);
  return href;
}

/**
 * Clicks, in the hover that shows `via` now, a link carrying `href`: a link drawn before the edit changed. The
 * editor's markdown reads the address from the link's data-href when it is clicked.
 */
async function clickStale(page: Page, via: string, href: string): Promise<void> {
  if (!(await hoverAction(page, via))) throw new Error(`${via} is a lens here, not a link`);
  // In one step of the page (the hover may be drawn again between two of the harness's steps); the link's own
  // address comes back, proof that a link of the hover's was clicked.
  const own = await page.evaluate<string>(`(() => {
    const anchor = [...document.querySelectorAll('.monaco-hover a[data-href]')].find(
      (a) => a.textContent.trim() === ${JSON.stringify(via)} && a.offsetParent !== null,
    );
    if (!anchor) return 'no link';
    const own = anchor.getAttribute('data-href');
    anchor.setAttribute('data-href', ${JSON.stringify(href)});
    anchor.click();
    return own;
  })()`);
  if (!own.startsWith('command:')) throw new Error(`no ${via} link in the hover: ${own}`);
  await page.mouse.move(1, 1);
}

describe('Loopwire in the VS Code workbench: a stale Keep or Undo of an inline edit', function () {
  this.timeout(180_000);
  const bench = useInlineWorkbench(STALE_ARTIFACTS);
  const { shot, shown, act, lensCount, noLensLeft, openFile, goTo, shows, inlinePrompt } = bench;
  const page = () => bench.workbench.page;
  /** Waits until the editor's actions are `expected`, top first. */
  const actions = (expected: string[]) =>
    until(`the actions ${expected.join(', ')}`, async () =>
      JSON.stringify(await actionTitles(page())) === JSON.stringify(expected) ? true : undefined,
    );
  const lastEntry = async () => (await inlineTitles(await bench.workbench.panel())).at(-1);
  const entry = (expected: string) =>
    until(`the entry: ${expected}`, async () => ((await lastEntry()) === expected ? true : undefined)).catch(async () =>
      assert.fail(`the last entry: ${await lastEntry()}`),
    );
  /** Ctrl+I on lines 5–20 of src/cart.js, "say what each function returns": two hunks, both shown. */
  const edit = async () => {
    await openFile('src/cart.js', 'cartTotal');
    await goTo('5');
    for (let i = 0; i < 15; i++) await page().keyboard.press('Shift+ArrowDown');
    await inlinePrompt();
    await page().locator('.quick-input-widget input').fill('say what each function returns');
    await page().keyboard.press('Enter');
    await shown('Undo All', 60_000);
    await actions(ALL);
    await shows(FIRST_NEW);
    await shows(SECOND_NEW);
  };
  const pressKeys = async (keys: string) => {
    if (!(await bench.focusInEditor())) await bench.lines().click();
    await page().keyboard.press(keys);
  };

  before(() => fs.mkdirSync(STALE_ARTIFACTS, { recursive: true }));

  it('Undo of a hunk already kept does nothing; the other hunk keeps its own actions', async () => {
    await edit();
    // The first hunk's Undo, as its hover links it now.
    const staleUndo = await linkOf(page(), 'Undo');
    await act('Keep');
    await actions(['Keep', 'Undo']);
    await clickStale(page(), 'Undo', staleUndo);
    await shot('stale-undo-clicked');
    // The remaining hunk's own Keep, after the stale click: both hunks' lines are the edit's, nothing undone.
    await act('Keep');
    await noLensLeft();
    await shows(FIRST_NEW);
    await shows(SECOND_NEW);
    await shows(FIRST_OLD, true);
    await shows(SECOND_OLD, true);
    await entry('Edited inline in src/cart.js:5 kept');
    // The file as it was for the next test: the editor's undo takes the kept edit back too.
    const back = async () => (await bench.lineTexts()).includes(FIRST_OLD) && (await lensCount()) === 0;
    for (let press = 0; press < 4 && !(await back()); press++) {
      await pressKeys('Control+z');
      await shows(FIRST_NEW, true, 3_000).catch(() => undefined);
    }
    await shows(FIRST_OLD);
    await shows(SECOND_OLD);
  });

  it('a link of an edit taken back with Ctrl+Z does nothing to the next edit of the file, whose hunks are the same', async () => {
    await edit();
    const staleUndo = await linkOf(page(), 'Undo');
    const staleKeepAll = await linkOf(page(), 'Keep All');
    await pressKeys('Control+z');
    await noLensLeft();
    await shows(FIRST_OLD);
    await shot('edit-undone');
    // The same prompt again: the same hunks (a hunk's id is its text), on an edit of its own.
    await edit();
    await clickStale(page(), 'Keep', staleUndo);
    await clickStale(page(), 'Keep', staleKeepAll);
    await shot('stale-links-clicked');
    // Nothing of the stale clicks: the new edit's six actions stand, its lines are there.
    assert.equal(await lensCount(), ALL.length, 'the new edit still waits for Keep or Undo, every hunk');
    await shows(FIRST_NEW);
    // Its own Undo of the first hunk, then Keep of the second, act as they say.
    await act('Undo');
    await actions(['Keep', 'Undo']);
    await shows(FIRST_OLD);
    await act('Keep');
    await noLensLeft();
    await shows(SECOND_NEW);
    await entry('Edited inline in src/cart.js:5 1 of 2 kept');
    await shot('after-own-actions');
  });
});
