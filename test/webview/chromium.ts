import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { Panel } from './panel';
import { type PanelServer, type Theme, startPanelServer } from './panelServer';

// Mocha hooks for a test file of the panel in real headless Chromium: Debian's browser, started once per
// file with a fresh profile; a context per panel; and after each test, every panel it opened must be
// clean — no CSP violation, nothing on the console, no uncaught error, no failed request — unless the test
// provoked that on purpose.

export const CHROMIUM = '/usr/bin/chromium';

/** Where the screenshots go (ignored by git; CI can keep them). */
export const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'webview');

/** The panel's size in VS Code's sidebar, roughly. */
export const VIEWPORT = { width: 420, height: 900 };

export interface ChromiumBench {
  server: PanelServer;
  open(theme?: Theme, options?: { deviceScaleFactor?: number }): Promise<Panel>;
}

export function useChromium(): ChromiumBench {
  let browser: Browser | undefined;
  let panels: Panel[] = [];
  const bench = {} as ChromiumBench;

  before(async function () {
    this.timeout(30_000);
    // Never a silent skip: CI installs it (.ci/run), and a missing browser must fail loudly.
    if (!fs.existsSync(CHROMIUM))
      throw new Error(
        `The webview tests run in Debian's Chromium at ${CHROMIUM}, which is missing: apt-get install chromium (.ci/run does).`,
      );
    bench.server = await startPanelServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Playwright gives every launch a new, empty --user-data-dir. The network flags keep Chromium from
      // calling home, which this machine's closed network refuses.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  bench.open = async (theme = 'dark', options = {}) => {
    if (!browser) throw new Error('Chromium is not running');
    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
      // A high-contrast theme is a dark one to the browser: VS Code sets its colours, never forced colours.
      colorScheme: theme === 'light' ? 'light' : 'dark',
    });
    const panel = await Panel.open(context, bench.server, theme);
    panels.push(panel);
    return panel;
  };

  afterEach(async function () {
    const opened = panels;
    panels = [];
    const problems: string[] = [];
    for (const panel of opened) {
      if (!panel.expectViolations) problems.push(...(await panel.problems()));
      await panel.page.context().close();
    }
    // Only a passing test is failed here: a failed one already says why.
    if (this.currentTest?.state === 'passed') assert.deepEqual(problems, [], 'the panel was not clean');
  });

  after(async () => {
    await browser?.close();
    await bench.server?.close();
  });

  return bench;
}
