import type { Locator, Page } from 'playwright-core';
import { actionTitles, codeActions, runAction, text } from '../../workbench/inlineWorkbench';
import { noteWhen, noted } from '../../workbench/inlineLensProbe';
import { type Workbench, openInEditor, until } from '../../workbench/workbench';
import { type HostTiming, type InlineKind, type InlineSample, hostTiming } from './inlineFigures';
import { ENTER, MOUSEUP, armInput, noteLine } from './inputProbe';

// One inline edit of each kind, driven as a user does in the real workbench and timed in its page: Ctrl+I on
// lines 10–16 of src/cart.js with the inline-discount prompt (two hunks), and the light bulb's Fix with
// Loopwire on config/shipping.json's doubled comma (one hunk). Each waits for the edit's lenses, clicks a
// hunk's Keep (and, Ctrl+I, the other hunk's Undo), then takes the edit back with Ctrl+Z so that the next run
// starts from the same text. The moments are noted in the page (inlineLensProbe.ts, inputProbe.ts).

const EDITOR = '.part.editor .editor-group-container.active';
/** What Ctrl+I's two-hunk edit shows once written: Keep All / Undo All, then each hunk's Keep and Undo. */
const ALL = ['Keep All', 'Undo All', 'Keep', 'Undo', 'Keep', 'Undo'];
const CART_COMMENT = '/** Takes `percent` percent (0 to 100) off an amount in cents. */';
/** The edit's first changed line and its last, as they end up. */
const CART_FIRST_LINE = '/** Takes `percent` percent (0 to 100) of an amount off it, in cents. */';
const CART_LAST_LINE = '  return roundCents(amount - discount);';
const CTRL_I_PROMPT = 'take the percent of the amount';
/** Between two keys of the prompt: 30 keys in about a second, a fast typist. */
const TYPING_DELAY_MS = 35;
const BROKEN = '"freeShippingFrom": 5000,,';
const FIXED_LINE = '  "freeShippingFrom": 5000,';
const EDIT_MS = 60_000;

/** The editor's parts a run reads, on one workbench. */
interface Editor {
  page: Page;
  lines: () => Locator;
  lensCount: () => Promise<number>;
}

function editorOf(workbench: Workbench): Editor {
  const page = workbench.page;
  return {
    page,
    lines: () => page.locator(`${EDITOR} .monaco-editor .view-lines`).first(),
    // The edit's actions: its labels' titles (lenses where inlay hints are off).
    lensCount: async () => (await actionTitles(page)).length,
  };
}

/** Opens `file` (by its tab once open) and waits until the editor shows `expected`, no lens left. */
async function show(workbench: Workbench, editor: Editor, file: string, expected: string): Promise<void> {
  const tab = editor.page.locator('.part.editor .tab', { hasText: file.split('/').pop() ?? file });
  // A hover left open over the editor (a Keep/Undo label's links, where the last click was) would take the
  // click meant for the tab: the mouse leaves, and Escape closes it.
  await editor.page.mouse.move(1, 1);
  await editor.page.keyboard.press('Escape');
  if ((await tab.count()) > 0) await tab.first().click();
  else await openInEditor(editor.page, file);
  await until(`${file} as it was`, async () =>
    (await text(editor.lines())).includes(expected) && (await editor.lensCount()) === 0 ? true : undefined,
  );
  await editor.lines().click();
}

/** The moment `name` was noted in the page, waited for. */
const at = (page: Page, name: string, timeoutMs = 15_000) => until(name, () => noted(page, name), timeoutMs);

/** Clicks lens `title` and returns how long from its mouseup the lenses took to be `after`. */
async function clickLens(editor: Editor, title: string, after: string[], name: string): Promise<number> {
  await armInput(editor.page, MOUSEUP);
  await noteWhen(editor.page, name, { lenses: after });
  await runAction(editor.page, title);
  const shown = await at(editor.page, name);
  return shown - (await at(editor.page, MOUSEUP));
}

/**
 * Ctrl+Z until the editor shows `original` again with no lens (the edit is one undo step, an Undo lens's
 * change another: at most a few presses), so that the next run starts from the same text.
 */
async function undoBack(editor: Editor, original: string): Promise<void> {
  const now = () => text(editor.lines());
  const back = async () => (await now()).includes(original) && (await editor.lensCount()) === 0;
  for (let press = 0; press < 4 && !(await back()); press++) {
    const before = await now();
    await editor.page.keyboard.press('Control+z');
    await until('the undo to land', async () => ((await now()) !== before ? true : undefined), 3_000).catch(
      () => undefined,
    );
    // Its actions follow a debounce later (25 ms at least; a lens's 250 ms).
    await until('the lenses to follow', async () => ((await back()) ? true : undefined), 1_500).catch(() => undefined);
  }
  if (!(await back())) throw new Error(`Ctrl+Z did not bring back ${original}`);
}

/** The extension's log lines with an Enter-to-first-line figure. */
const timingLines = (log: () => string) =>
  log()
    .split('\n')
    .filter((line) => line.includes('first line painted'));

/** The extension's figure of the run that ends after `before` such lines were logged (null if none comes). */
async function hostFigure(log: () => string, before: number): Promise<HostTiming | null> {
  const line = await until('the run’s log line', () => timingLines(log)[before], 10_000).catch(() => undefined);
  return line === undefined ? null : hostTiming(line);
}

export interface RunContext {
  workbench: Workbench;
  /** The extension host's Loopwire log, read whole. */
  log: () => string;
  window: number;
  index: number;
  phase: InlineSample['phase'];
}

/** Ctrl+I on lines 10–16 of src/cart.js: Enter → first changed line, the end → lenses, Keep and Undo → lenses. */
export async function ctrlIRun(context: RunContext): Promise<InlineSample> {
  const editor = editorOf(context.workbench);
  const { page } = editor;
  await show(context.workbench, editor, 'src/cart.js', CART_COMMENT);
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 7; i++) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Control+i');
  const box = page.locator('.quick-input-widget');
  // Shown, not the last prompt's hidden widget (keys typed before it shows would go to the editor).
  const shown = async () => (await box.isVisible()) && (await text(box)).includes('Edit Inline');
  await until('the inline prompt', async () => ((await shown()) ? true : undefined));
  await box.locator('input').waitFor({ state: 'visible' });
  // Typed as a person types (the extension makes and warms the edit's agent meanwhile), not filled at once.
  await box.locator('input').pressSequentially(CTRL_I_PROMPT, { delay: TYPING_DELAY_MS });
  const logged = timingLines(context.log).length;
  await armInput(page, ENTER);
  await noteWhen(page, 'first-change', { noText: CART_COMMENT });
  await noteLine(page, 'first-line', CART_FIRST_LINE);
  await noteLine(page, 'edit-end', CART_LAST_LINE);
  await noteWhen(page, 'edit-lenses', { lenses: ALL });
  await page.keyboard.press('Enter');
  const lenses = await at(page, 'edit-lenses', EDIT_MS);
  const enter = await at(page, ENTER);
  const end = await at(page, 'edit-end');
  const first = await at(page, 'first-line');
  const change = await at(page, 'first-change');
  // The comment's hunk kept (the return's lenses left), then the return's undone (none left).
  const keep = await clickLens(editor, 'Keep', ['Keep', 'Undo'], 'after-keep');
  const undo = await clickLens(editor, 'Undo', [], 'after-undo');
  const host = await hostFigure(context.log, logged);
  await undoBack(editor, CART_COMMENT);
  const moments = { change: change - enter, first: first - enter, end: end - enter, lenses: lenses - end };
  return sample('ctrl-i', context, { ...moments, keep, undo, host });
}

/** The light bulb's Fix with Loopwire: its click → the fixed line, then its lenses, Keep → none. */
export async function lightBulbRun(context: RunContext): Promise<InlineSample> {
  const editor = editorOf(context.workbench);
  const { page } = editor;
  await show(context.workbench, editor, 'config/shipping.json', BROKEN);
  await page.locator(`${EDITOR} .squiggly-error`).first().waitFor();
  // Line 3, column 28: the second comma (Home would stop at the indentation).
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 27; i++) await page.keyboard.press('ArrowRight');
  await codeActions(context.workbench, 'Fix with Loopwire');
  const logged = timingLines(context.log).length;
  await armInput(page, MOUSEUP);
  await noteWhen(page, 'first-change', { noText: BROKEN });
  await noteLine(page, 'first-line', FIXED_LINE);
  await noteWhen(page, 'edit-lenses', { lenses: ['Keep', 'Undo'] });
  await page.locator('.action-widget .monaco-list-row', { hasText: 'Fix with Loopwire' }).first().click();
  const lenses = await at(page, 'edit-lenses', EDIT_MS);
  const click = await at(page, MOUSEUP);
  // One changed line: its first line is its end. (Its first change may be the line emptied, then written.)
  const first = await at(page, 'first-line');
  const change = await at(page, 'first-change');
  const keep = await clickLens(editor, 'Keep', [], 'after-keep');
  const host = await hostFigure(context.log, logged);
  await undoBack(editor, BROKEN);
  const moments = { change: change - click, first: first - click, end: first - click, lenses: lenses - first };
  return sample('light-bulb', context, { ...moments, keep, undo: null, host });
}

function sample(
  kind: InlineKind,
  context: RunContext,
  m: {
    change: number;
    first: number;
    end: number;
    lenses: number;
    keep: number;
    undo: number | null;
    host: HostTiming | null;
  },
): InlineSample {
  return {
    kind,
    window: context.window,
    index: context.index,
    phase: context.phase,
    first_line_ms: m.change,
    first_line_whole_ms: m.first,
    edit_end_ms: m.end,
    lens_after_end_ms: m.lenses,
    lens_after_keep_ms: m.keep,
    lens_after_undo_ms: m.undo,
    host: m.host,
  };
}
