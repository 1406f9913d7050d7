import type { Page } from 'playwright-core';
import { commandHere } from './workbench';

// Negative checks without a clock (issue 52, item 4): "nothing showed" is proved by a marker sent after the
// thing that must not show, and waited for, rather than by a few seconds' sleep. A MutationObserver in the
// workbench's page notes whether the thing showed at any moment (even if the marker's own box replaced it),
// and the marker's answer says that everything sent before it has come. Conditions are data: the page's CSP
// has no `unsafe-eval`, so no code is built in the page.

/** The page's side, as source (the suite's TypeScript has no DOM types). */
const WATCH = `(({ name, selector, pattern }) => {
  const seen = (window.loopwireSeen ??= {});
  seen[name] = false;
  const wanted = new RegExp(pattern);
  const check = () => {
    for (const element of document.querySelectorAll(selector))
      if (element.getClientRects().length > 0 && wanted.test(element.textContent ?? '')) {
        seen[name] = true;
        observer.disconnect();
        return;
      }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  check();
})`;

/**
 * Starts noting whether an element matching `selector` shows text matching `pattern` at any moment from now;
 * the function returned reads it.
 */
export async function watchShown(
  page: Page,
  name: string,
  selector: string,
  pattern: RegExp,
): Promise<() => Promise<boolean>> {
  await page.evaluate(`${WATCH}(${JSON.stringify({ name, selector, pattern: pattern.source })})`);
  return async () => (await page.evaluate<Record<string, boolean>>('window.loopwireSeen ?? {}'))[name] === true;
}

/**
 * A marker through the extension host: Loopwire: Ask… is a command the host runs, and its input box is the
 * host's answer, on the one channel that carries what the host sends the window, in order. Once the box shows,
 * what the host was asked before (a key's command, the panel's first showing) and answered at once (a
 * notification, an input box) has reached the window. The box is closed again. `run` runs the command (by default from where the focus is).
 */
export async function hostMarker(
  page: Page,
  run: (title: string) => Promise<void> = (title) => commandHere(page, title),
): Promise<void> {
  await run('Loopwire: Ask…');
  const ask = page.locator('.quick-input-widget', { hasText: 'A task or a question about this workspace' });
  await ask.waitFor({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  await ask.waitFor({ state: 'hidden' });
}
