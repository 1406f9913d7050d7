import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { until } from './until';

// What newUserWalk.test.ts uses to look at the workbench and the panel: text as shown, a pasted PNG, where
// the focus is, the ports Loopwire's log names, a picker's change as the host wrote it, and whether an
// element shows inside the conversation.

/** Monaco draws spaces as no-break spaces. */
export const text = async (locator: Locator) => ((await locator.textContent()) ?? '').replace(/\u00a0/g, ' ');

/** In the panel's page: `base64` as a PNG file pasted into the prompt box, as the clipboard hands one over. */
export const paste = (base64: string) => `(() => {
  const bytes = Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));
  const data = new DataTransfer();
  data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
  const box = document.querySelector('textarea.prompt');
  box.focus();
  box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
})()`;

/** The 127.0.0.1 ports Loopwire's output channel names (its log under the profile's logs folder). */
export function loopwireLogPorts(userData: string): string[] {
  const ports = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/loopwire/i.test(entry.name))
        for (const match of fs.readFileSync(file, 'utf8').matchAll(/127\.0\.0\.1:(\d+)/g)) ports.add(match[1] ?? '');
    }
  };
  const logs = path.join(userData, 'logs');
  if (fs.existsSync(logs)) walk(logs);
  return [...ports];
}

/** What has the focus in the panel's page: tag, class and accessible name. */
export const focused = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'body';
  return [el.tagName.toLowerCase(), el.className, el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''].join('|');
})()`;

/**
 * Waits until the picker shows `value` as the host wrote it: the host's answer sets the select's title
 * ("Reasoning effort: No reasoning"); a key alone changes only its value.
 */
export async function confirmed(select: Locator, value: string): Promise<void> {
  await until(`the picker on ${value}, written by the host`, async () => {
    const [current, title, label, shown] = await Promise.all([
      select.inputValue(),
      select.getAttribute('title'),
      select.getAttribute('aria-label'),
      select.evaluate(
        (element: { selectedOptions: ArrayLike<{ textContent: string | null }> }) =>
          element.selectedOptions[0]?.textContent ?? '',
      ),
    ]);
    return current === value && title === `${label}: ${shown}` ? true : undefined;
  });
}

/** Whether `locator` shows whole inside the conversation's box (not scrolled below it, nor behind what is under it). */
export async function inConversation(panel: Frame, locator: Locator): Promise<boolean> {
  const [box, view] = await Promise.all([locator.boundingBox(), panel.locator('.transcript').boundingBox()]);
  return box !== null && view !== null && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1;
}

/**
 * In the panel's page: the panel's own words still in English — shown text, labels, titles and placeholders
 * with an English word and no Chinese — leaving out what is the user's or the model's (bubbles, answers,
 * code, file and tool names, model names).
 */
export const englishWords = `(() => {
  const skip = '.bubble, .markdown, .entry.assistant, .thinking, code, pre, .file-name, .tool-name, .tool-summary, ' +
    '.diff, .picker-model, .queue-text, .history li, .path-link, .context-meter-text';
  const found = new Set();
  const english = (s) => s && /[A-Za-z]{3,}/.test(s) && !/[\\u3400-\\u9fff]/.test(s);
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest(skip) || !el.checkVisibility()) continue;
    for (const name of ['aria-label', 'title', 'placeholder'])
      if (english(el.getAttribute(name))) found.add(name + ': ' + el.getAttribute(name));
    for (const node of el.childNodes)
      if (node.nodeType === 3 && english(node.textContent.trim())) found.add(node.textContent.trim());
  }
  return [...found];
})()`;

/** Types `prompt` in the prompt box and sends it with Enter. */
export async function send(panel: Frame, prompt: string): Promise<void> {
  const box = panel.locator('textarea.prompt');
  await box.fill(prompt);
  await box.press('Enter');
}

/** The first tool card waiting for the user, with its entry. */
export async function waitingCard(panel: Frame): Promise<{ name: string; card: Locator }> {
  const waiting = panel.locator('.entry.tool:has(.tool-card.status-approval)').first();
  await waiting.waitFor({ timeout: 60_000 });
  const id = (await waiting.getAttribute('data-id')) ?? '';
  assert.ok(id, 'a tool entry has its id');
  const card = panel.locator(`.entry[data-id="${id}"]`);
  return { name: await text(card.locator('.tool-name')), card };
}

/**
 * Waits until the webview's frame has the workbench's focus and, in the panel's page, the element `inPage`
 * describes (as `focused` reads it); the error says where the focus is instead.
 */
export async function focusBackOn(page: Page, panel: Frame, inPage: RegExp): Promise<void> {
  let where = '';
  await until(
    'the focus back in the panel',
    async () => {
      const there = await panel.evaluate<string>(focused);
      const outside = await page.evaluate<string>(
        `(() => { const a = document.activeElement; return a ? a.tagName + '.' + a.className : 'none'; })()`,
      );
      where = `${outside} / ${there}`;
      return inPage.test(there) && /^IFRAME/.test(outside) ? true : undefined;
    },
    5_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}: the focus is on ${where}`);
  });
}
