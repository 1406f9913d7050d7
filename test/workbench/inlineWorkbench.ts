import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { copyDemo } from './codeServer';
import { actionRows } from './inlineLensProbe';
import { useWorkbench } from './suite';
import { type Workbench, openInEditor, until } from './workbench';

// What the two inline suites share (inline.test.ts: the light bulb's fix; inlineEdit.test.ts: Ctrl+I): a
// workbench on the demo whose scripted model answers from the scenarios below (`loopwire.scenarioFiles`, and
// the bundled demo-inline-fix-json), and the editor as they read and drive it: its lines, its Keep / Undo
// lenses, Go to Line, the light bulb's menu, the inline prompt.

const editFile = (edits: { old_string: string; new_string: string }[]) => ({
  type: 'function_call',
  name: 'edit_file',
  arguments: { path: 'src/cart.js', edits },
});

// Each inline scenario is one response, its note after the edit: the task ends on the edit (src/agent/editEnd.ts),
// and a note written first would hold back the first changed line. The chat task 'wait for me' is held back
// until the test writes `release` (releaseChat), so that it runs for as long as the test needs and no longer.
export const scenarios = (release: string) => ({
  scenarios: [
    {
      name: 'inline-discount',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: take the percent of the amount',
      steps: [
        {
          output: [
            editFile([
              {
                old_string: '/** Takes `percent` percent (0 to 100) off an amount in cents. */',
                new_string: '/** Takes `percent` percent (0 to 100) of an amount off it, in cents. */',
              },
              {
                old_string: '  return roundCents(amount - percent);',
                new_string: '  const discount = (amount * percent) / 100;\n  return roundCents(amount - discount);',
              },
            ]),
            { type: 'message', text: 'The discount is now that percent of the amount.' },
          ],
        },
      ],
    },
    {
      name: 'inline-slow',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: rewrite cartTotal slowly',
      steps: [
        {
          fault: { kind: 'slow', factor: 60 },
          output: [
            editFile([
              {
                old_string: '  const subtotal = lines.reduce((sum, line) => sum + lineTotal(line), 0);',
                new_string: [
                  '  // Sum every line first, one by one.',
                  '  let subtotal = 0;',
                  '  for (const line of lines) subtotal += lineTotal(line);',
                  '  // Then the discount, on the whole.',
                  '  // (A long comment, so that the edit takes a while to write.)',
                ].join('\n'),
              },
            ]),
            { type: 'message', text: 'Rewritten.' },
          ],
        },
      ],
    },
    {
      name: 'inline-both',
      match: '^Edit src/cart\\.js inline, lines \\d+–\\d+: say what each function returns',
      steps: [
        {
          output: [
            editFile([
              {
                old_string: '/** The price of one line of the cart, in cents. */',
                new_string: '/** The price of one line of the cart, in cents (price times quantity). */',
              },
              {
                old_string: "/** The cart's total in cents: every line, then the discount. */",
                new_string: "/** The cart's total in cents: every line summed, then the discount taken off. */",
              },
            ]),
            { type: 'message', text: 'Each comment says what its function returns.' },
          ],
        },
      ],
    },
    {
      name: 'chat-waits',
      match: 'wait for me',
      steps: [
        {
          fault: { kind: 'stall', after_events: 3, ms: 300_000, until_file: release },
          output: [{ type: 'message', text: 'Done waiting: the inline fix ran beside this task.' }],
        },
      ],
    },
  ],
});

/** Monaco draws spaces as no-break spaces. */
export const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' ');
/** A line's words with one space between them (an entry's icon, title and outcome are separate elements). */
export const flat = (line: string) => line.replace(/\s+/g, ' ');

const EDITOR = '.part.editor .editor-group-container.active';
/** The titles of the active editor's inline actions, top first. */
export const actionTitles = async (page: Page) => (await actionRows(page)).flatMap((row) => row.titles);

/** Waits until the active editor shows the inline action `title`. */
export const actionShown = (page: Page, title: string, timeoutMs = 15_000) =>
  until(`the ${title} action`, async () => ((await actionTitles(page)).includes(title) ? true : undefined), timeoutMs);

/**
 * Shows the hover that links the inline action `title`, as a user does with the mouse: hovers the line of the
 * first label showing it (Keep All and Undo All: the first hunk's line); its link. Undefined for a lens.
 */
export async function hoverAction(page: Page, title: string): Promise<Locator | undefined> {
  const rows = await actionRows(page);
  const whole = title.endsWith(' All');
  const row = rows.find((r) => (whole && !r.lens ? r.titles.includes('Keep') : r.titles.includes(title)));
  if (!row) throw new Error(`no ${title} action: ${JSON.stringify(rows.map((r) => r.titles))}`);
  if (row.lens) return undefined;
  const link = page.locator('.monaco-hover a', { hasText: new RegExp(`^${title}$`) }).first();
  // An earlier hover (another hunk's) goes first: the mouse leaves the editor.
  await page.mouse.move(1, 1);
  await until('no hover left', async () => ((await link.isVisible()) ? undefined : true));
  await page.mouse.move(row.x, row.y);
  await until(`${title} in the hover`, async () => {
    if (await link.isVisible()) return true;
    // Moved off and back: the editor shows a hover once the mouse rests on the line.
    await page.mouse.move(row.x, row.y - 40);
    await page.mouse.move(row.x, row.y);
    await page.waitForTimeout(500);
    return (await link.isVisible()) ? true : undefined;
  });
  return link;
}

/** Runs the inline action `title` as a user does with the mouse: its link in its hover, or its lens. */
export async function runAction(page: Page, title: string): Promise<void> {
  const link = await hoverAction(page, title);
  if (link) return link.click();
  const rows = await actionRows(page);
  const lens = rows.find((r) => r.titles.includes(title));
  if (lens) await page.mouse.click(lens.x, lens.y);
}

/** The titles of the panel's inline entries, in order, each on one line. */
export const inlineTitles = async (panel: Frame) =>
  (await panel.locator('.entry.inline .inline-header').allInnerTexts()).map((title) => flat(title).trim());

/** The workbench of an inline suite, once started, and the editor's parts and moves the suite's tests use. */
export interface InlineWorkbench {
  readonly workbench: Workbench;
  shot: (name: string) => Promise<string>;
  /** The active editor's lines. */
  lines: () => Locator;
  /** Waits until the active editor shows the inline action `title` (a label's, or a lens). */
  shown: (title: string, timeoutMs?: number) => Promise<unknown>;
  /** Runs that action as a user does: its link in the hover of its hunk's lines (a lens: clicked). */
  act: (title: string) => Promise<void>;
  /** Shows the hover that links that action. */
  hover: (title: string) => Promise<unknown>;
  lensCount: () => Promise<number>;
  /** Waits until the edit's lenses are gone (it was kept, undone or stopped). */
  noLensLeft: () => Promise<unknown>;
  /** Whether the workbench's focus is in an editor (not in the panel's webview, nor anywhere else). */
  focusInEditor: () => Promise<boolean>;
  /** Opens `file` with Quick Open, or, once open, by its tab (Quick Open may still be closing after another quick input). */
  openFile: (file: string, expected: string) => Promise<void>;
  /** Go to Line (`10`, `3:28`). */
  goTo: (where: string) => Promise<void>;
  /** The editor's lines, sorted (Monaco keeps its line elements in no particular order). */
  lineTexts: () => Promise<string[]>;
  /** Waits until the editor's text includes (or, `absent`, lacks) `snippet`. */
  shows: (snippet: string, absent?: boolean, timeoutMs?: number) => Promise<unknown>;
  /** Presses Ctrl+I and waits for the inline prompt; returns its box. */
  inlinePrompt: () => Promise<Locator>;
  /** Opens the light bulb's menu on the JSON error and returns its rows' titles, in order. */
  quickFixMenu: () => Promise<string[]>;
  /** The extension host's Loopwire output channel, from code-server's logs. */
  loopwireLog: () => string;
  /** Lets the model answer the chat task 'wait for me', held back until now. */
  releaseChat: () => void;
}

/** Starts the suite's workbench (a mocha `before`) on a demo copy with the inline scenarios; logs in `artifacts`. */
export function useInlineWorkbench(artifacts: string): InlineWorkbench {
  let started: Workbench | undefined;
  let release = '';
  useWorkbench((workbench) => (started = workbench), {
    artifacts,
    workspace: (folder) => {
      copyDemo(folder);
      // Beside the workspace, in the workbench's own temporary folder: nothing the window shows.
      release = path.join(path.dirname(folder), 'release-chat');
      fs.writeFileSync(path.join(folder, 'inline-scenarios.json'), JSON.stringify(scenarios(release), null, 2));
      fs.writeFileSync(
        path.join(folder, '.vscode', 'settings.json'),
        `${JSON.stringify({ 'loopwire.endpoint': 'embedded', 'loopwire.scenarioFiles': ['inline-scenarios.json'] }, null, 2)}\n`,
      );
    },
  });
  const wb = (): Workbench => {
    if (!started) throw new Error('the workbench has not started');
    return started;
  };
  const lines = () => wb().page.locator(`${EDITOR} .monaco-editor .view-lines`).first();
  const lensCount = async () => (await actionTitles(wb().page)).length;
  return {
    get workbench() {
      return wb();
    },
    shot: (name) => wb().screenshot(name),
    lines,
    shown: (title, timeoutMs) => actionShown(wb().page, title, timeoutMs),
    act: (title) => runAction(wb().page, title),
    hover: (title) => hoverAction(wb().page, title),
    lensCount,
    noLensLeft: () => until('no lens left', async () => ((await lensCount()) === 0 ? true : undefined)),
    focusInEditor: () => wb().page.evaluate<boolean>("document.activeElement?.closest('.part.editor') != null"),
    openFile: (file, expected) => openFile(wb().page, lines, file, expected),
    goTo: (where) => goTo(wb(), where),
    lineTexts: async () =>
      (await lines().locator('.view-line').allTextContents()).map((line) => line.replace(/\u00a0/g, ' ')).sort(),
    shows: (snippet, absent = false, timeoutMs = 30_000) =>
      until(
        `${absent ? 'no ' : ''}${snippet} in the editor`,
        async () => ((await text(lines())).includes(snippet) !== absent ? true : undefined),
        timeoutMs,
      ),
    inlinePrompt: async () => {
      await wb().page.keyboard.press('Control+i');
      const box = wb().page.locator('.quick-input-widget');
      await until('the inline prompt', async () => ((await text(box)).includes('Edit Inline') ? true : undefined));
      return box;
    },
    quickFixMenu: async () => {
      await openFile(wb().page, lines, 'config/shipping.json', 'freeShippingFrom');
      await wb().page.locator(`${EDITOR} .squiggly-error`).first().waitFor();
      await goTo(wb(), '3:28');
      return codeActions(wb(), 'Fix with Loopwire');
    },
    loopwireLog: () => loopwireLog(wb()),
    releaseChat: () => fs.writeFileSync(release, ''),
  };
}

async function openFile(page: Workbench['page'], lines: () => Locator, file: string, expected: string) {
  const tab = page.locator('.part.editor .tab', { hasText: path.basename(file) });
  if ((await tab.count()) > 0) await tab.first().click();
  else await openInEditor(page, file);
  const view = lines();
  await until(`${file} in the editor`, async () => ((await text(view)).includes(expected) ? true : undefined));
  await view.click();
}

async function goTo({ page }: Workbench, where: string): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${where}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/**
 * Opens the code actions where the cursor is (Ctrl+., again every 3 s until `expected` is among them: the
 * light bulb comes once the diagnostics are in) and returns their rows' titles, in order.
 */
export async function codeActions({ page }: Workbench, expected: string): Promise<string[]> {
  const row = page.locator('.action-widget .monaco-list-row', { hasText: expected }).first();
  let askedAt = 0;
  await until(`${expected} in the code actions`, async () => {
    if (await row.isVisible()) return true;
    if (Date.now() - askedAt > 3_000) {
      askedAt = Date.now();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+.');
    }
    return undefined;
  });
  return (await page.locator('.action-widget .monaco-list-row').allTextContents()).map((title) => title.trim());
}

function loopwireLog(workbench: Workbench): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('Loopwire.log')) found.push(full);
    }
  };
  walk(path.join(workbench.userData, 'logs'));
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}
