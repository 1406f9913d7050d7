import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AxeResults, ImpactValue, Result } from 'axe-core';
import type { Page } from 'playwright-core';
import { ARTIFACTS } from './chromium';

// axe-core, Deque's accessibility checker, run inside the panel's page: its browser build is read from
// node_modules and evaluated in the page as it stands (nothing fetched, so it runs offline), then
// `axe.run` checks the whole document against every rule it has — WCAG 2.x A and AA, and best practices.
// The full report is kept in test-artifacts/webview/axe-<name>.json; the tests fail on what it rates
// critical or serious.

/** The impacts a test fails on: what keeps a screen-reader or low-vision user from the panel. */
export const BLOCKING: readonly ImpactValue[] = ['critical', 'serious'];

let source: string | undefined;

/** axe's browser build, read once per process. */
function axeSource(): string {
  source ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

interface AxeWindow {
  axe?: { run(context: unknown, options: object): Promise<AxeResults> };
  document: unknown;
}

/**
 * Runs axe on the page and writes its whole report (passes, violations, incomplete: every impact) to
 * test-artifacts/webview/axe-`name`.json. Injected through the DevTools protocol, not a <script> tag: the
 * panel's CSP allows only its own nonce'd script, and a page that had to relax it would not be the panel.
 */
export async function runAxe(page: Page, name: string): Promise<AxeResults> {
  if (!(await page.evaluate(() => (globalThis as unknown as AxeWindow).axe !== undefined)))
    await page.evaluate(axeSource());
  const results = await page.evaluate(async () => {
    const window = globalThis as unknown as AxeWindow;
    if (!window.axe) throw new Error('axe-core did not load in the page');
    // Every rule, not only WCAG's: best practices are reported too (most rate moderate or minor).
    return window.axe.run(window.document, { resultTypes: ['violations', 'incomplete', 'passes'] });
  });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(path.join(ARTIFACTS, `axe-${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

/** The critical and serious violations, one line per element: rule, impact, the element, and axe's help URL. */
export function blocking(results: AxeResults): string[] {
  return results.violations.flatMap((rule: Result) =>
    rule.nodes
      .filter((node) => BLOCKING.includes(node.impact ?? rule.impact ?? null))
      .map(
        (node) =>
          `${rule.id} (${node.impact ?? rule.impact}): ${node.target.join(' ')} ${node.html.slice(0, 160)}\n` +
          `    ${node.failureSummary?.replace(/\n/g, ' ') ?? rule.help}\n    ${rule.helpUrl}`,
      ),
  );
}

/** A one-line count per impact, for the test's own output. */
export function tally(results: AxeResults): string {
  const counts = new Map<string, number>();
  for (const rule of results.violations) {
    const impact = rule.impact ?? 'none';
    counts.set(impact, (counts.get(impact) ?? 0) + rule.nodes.length);
  }
  return [...counts].map(([impact, count]) => `${count} ${impact}`).join(', ') || 'no violations';
}
