import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Locator } from 'playwright-core';
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
