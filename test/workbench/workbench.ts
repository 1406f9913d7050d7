import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';
import { ROOT, copyDemo, requireFiles } from './codeServer';
import { type ServerLease, type WorkbenchPool, launchChromium, ownServer } from './shared';
import { until } from './until';

// The chat panel where users see it: the real VS Code workbench, served by code-server (codeServer.ts), in
// headless Debian Chromium driven by playwright-core, with Loopwire's view shown. Nothing reaches past
// 127.0.0.1: the browser resolves no other host name. code-server's output goes to code-server.log, the
// page's console and the harness's steps to page.log, both in the artifacts folder.

export { until };

/** Screenshots and logs (ignored by git). */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'workbench');

export const VIEWPORT = { width: 1400, height: 900 };

export interface Workbench {
  page: Page;
  /** The demo copy the workbench has open. */
  workspace: string;
  /** code-server's user data (its logs/ hold the extension host's output channels). */
  userData: string;
  /** The folder Loopwire is installed in (in the run's extensions folder). */
  extension: string;
  /** The chat panel's page (the webview's inner frame), found again if VS Code replaced it. */
  panel(timeoutMs?: number): Promise<Frame>;
  /** Developer: Reload Window, then the Loopwire panel again (a new extension host, a new webview). */
  reload(): Promise<void>;
  /** Runs a command from the command palette by its title (e.g. `Loopwire: New Chat`). */
  command(title: string): Promise<void>;
  /** A PNG of the whole window (or only the side bar) in test-artifacts/workbench/NAME.png. */
  screenshot(name: string, options?: { sidebar?: boolean }): Promise<string>;
  /** Requests the browser tried to send anywhere but 127.0.0.1 (each refused). */
  offHostRequests: string[];
  /** Uncaught errors of the workbench's pages. */
  pageErrors: string[];
  close(): Promise<void>;
}
/** The frame of the page that has the panel's composer, if any frame has it now. */
async function findPanel(page: Page): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || frame.isDetached()) continue;
    const found = await frame
      .locator('.composer textarea.prompt')
      .count()
      .catch(() => 0);
    if (found > 0) return frame;
  }
  return undefined;
}

/** Runs a command from the command palette by its title, with the focus on the workbench. */
async function runCommand(page: Page, title: string): Promise<void> {
  await page.locator('.part.editor').click();
  await commandHere(page, title);
}

/** A workbench command by its title, run where the focus is now (an editor keeps its selection). */
export async function commandHere(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/**
 * Opens `file` (a workspace path) in the editor with Quick Open, from the workbench (not the webview, which
 * may have the focus), and returns its lines; the editor has the focus.
 */
export async function openInEditor(page: Page, file: string): Promise<Locator> {
  await page.locator('.part.editor').click();
  await page.keyboard.press('Control+P');
  const quickOpen = page.locator('.quick-input-widget input');
  await quickOpen.waitFor({ state: 'visible' });
  await quickOpen.fill(file);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: path.basename(file) })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.part.editor .tab.active', { hasText: path.basename(file) }).waitFor();
  return page.locator('.part.editor .editor-group-container.active .monaco-editor .view-lines').first();
}

/** The side bar's title (its view container's name) as shown. */
const sidebarTitle = (page: Page) => page.locator('.part.sidebar .composite.title h2').first();

/**
 * Opens the Loopwire view from its activity-bar item (or, should the layout hide it, with New Chat). `reloaded`:
 * the window had the view before, and restores it on its own time.
 */
async function showLoopwire(page: Page, step: (what: string) => void, reloaded: boolean): Promise<void> {
  // The Loopwire activity-bar item appears once the extension's contributions are registered.
  const label = 'a.action-label[aria-label^="Loopwire"]';
  const item = page.locator(`.part.activitybar .action-item ${label}`).first();
  const shown = await item.waitFor({ timeout: 90_000 }).then(
    () => true,
    () => false,
  );
  if (shown) {
    step('Loopwire in the activity bar');
    // The item is `checked` while its view shows (a hidden side bar keeps the view's title in the page, so
    // the title says nothing). A click on a checked item hides the view, so the item is clicked only while
    // unchecked, and again if a click left it so.
    const checked = page.locator(`.part.activitybar .action-item.checked ${label}`);
    // A new window opens the side bar's default view as it starts: once that shows, nothing more comes of
    // itself (a limit, should the side bar be hidden). A reloaded window restores Loopwire's view, which a
    // click meanwhile only opens sooner.
    if (!reloaded)
      await until(
        'the side bar’s first view',
        async () => (await sidebarTitle(page).isVisible()) || undefined,
        3_000,
      ).catch(() => undefined);
    let clickedAt = 0;
    await until('the Loopwire view in the side bar', async () => {
      if ((await checked.count()) > 0) return true;
      if (Date.now() - clickedAt > 2_000) {
        clickedAt = Date.now();
        await item.click();
      }
      return undefined;
    });
  } else {
    step('no Loopwire item in the activity bar: running Loopwire: New Chat');
    await runCommand(page, 'Loopwire: New Chat');
  }
  // Off the item, so that its hover does not cover the panel in screenshots.
  await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height - 5);
}

export interface WorkbenchOptions {
  /** Fills the folder the workbench opens (its .vscode/settings.json included); by default a demo copy. */
  workspace?: (folder: string) => void;
  /** Where the logs go; by default test-artifacts/workbench. */
  artifacts?: string;
  /**
   * How Loopwire is installed: `unpacked` (default) copies this checkout's dist/ into the extensions folder;
   * `vsix` packages it as `npm run package` does (once per run, vsix.ts) and installs the .vsix with
   * code-server's own `--install-extension`, as a user does.
   */
  install?: 'unpacked' | 'vsix';
  /** User settings over the suite's defaults (codeServer.ts), e.g. `loopwire.endpoint`. */
  userSettings?: Record<string, unknown>;
}

/**
 * code-server, then Chromium on its workbench with the demo copy (or the given workspace) open and the
 * Loopwire view shown. On any failure everything started so far is stopped again. With a `pool` (a mocha run,
 * suite.ts) the run's Chromium and code-server are used where the suite can share them (shared.ts); without
 * one (the benches) the workbench starts and ends its own.
 */
export async function startWorkbench(options: WorkbenchOptions = {}, pool?: WorkbenchPool): Promise<Workbench> {
  // A .vsix is built from the sources (vsix.ts), so only the unpacked install needs dist/.
  requireFiles(options.install !== 'vsix');
  const artifacts = options.artifacts ?? ARTIFACTS;
  fs.mkdirSync(artifacts, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-workbench-'));
  const workspace = path.join(work, 'demo-workspace');
  if (options.workspace) {
    fs.mkdirSync(workspace, { recursive: true });
    options.workspace(workspace);
  } else copyDemo(workspace);
  const log = fs.createWriteStream(path.join(artifacts, 'code-server.log'));
  const pageLog = fs.createWriteStream(path.join(artifacts, 'page.log'));
  let lease: ServerLease | undefined;
  let browser: { browser: Browser; own: boolean } | undefined;
  let context: BrowserContext | undefined;
  const offHostRequests: string[] = [];
  const pageErrors: string[] = [];
  const started = Date.now();
  const step = (what: string) => pageLog.write(`[harness +${((Date.now() - started) / 1000).toFixed(1)} s] ${what}\n`);

  const close = async () => {
    await context?.close().catch(() => undefined);
    if (browser?.own) await browser.browser.close().catch(() => undefined);
    await lease?.release();
    if (process.env['LOOPWIRE_WORKBENCH_KEEP'] === '1') pageLog.write(`kept ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
    log.end();
    pageLog.end();
  };

  try {
    const server = await (pool ? pool.codeServer(options, log, step) : ownServer(options, log, step));
    lease = server;
    const { port } = server;
    browser = pool ? await pool.chromium() : { browser: await launchChromium(), own: true };
    step(browser.own ? 'Chromium launched' : "the run's Chromium");
    context = await browser.browser.newContext({ viewport: VIEWPORT });
    // The panel's own files come from vscode-cdn.net addresses that the webview's service worker answers
    // inside the browser; anything else off 127.0.0.1 is a request that tried to leave the machine.
    const offHost = (url: string) => /^(https?|wss?):/.test(url) && new URL(url).hostname !== '127.0.0.1';
    context.on('requestfailed', (request) => {
      if (offHost(request.url()))
        offHostRequests.push(`${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
    });
    context.on('response', (response) => {
      if (offHost(response.url()) && !response.fromServiceWorker()) offHostRequests.push(response.url());
    });
    const page = await context.newPage();
    page.on('console', (message) => pageLog.write(`[${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => {
      pageErrors.push(error.message);
      pageLog.write(`[pageerror] ${error.stack ?? error.message}\n`);
    });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
    step('page loaded');
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    step('workbench shown');

    await showLoopwire(page, step, false);
    let current: Frame | undefined;
    const workbench: Workbench = {
      page,
      workspace,
      userData: server.userData,
      extension: server.extension,
      offHostRequests,
      pageErrors,
      async panel(timeoutMs = 60_000) {
        if (
          current &&
          !current.isDetached() &&
          (await current
            .locator('.composer')
            .count()
            .catch(() => 0)) > 0
        )
          return current;
        current = await until('the Loopwire panel (its composer) in a webview frame', () => findPanel(page), timeoutMs);
        return current;
      },
      async reload() {
        current = undefined;
        step('Developer: Reload Window');
        await Promise.all([
          page.waitForEvent('load', { timeout: 90_000 }),
          runCommand(page, 'Developer: Reload Window'),
        ]);
        await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
        step('workbench shown again');
        await showLoopwire(page, step, true);
        await workbench.panel(90_000);
        step('panel shown again');
      },
      command: (title) => runCommand(page, title),
      async screenshot(name, options = {}) {
        const file = path.join(artifacts, `${name}.png`);
        if (options.sidebar) await page.locator('.part.sidebar').screenshot({ path: file });
        else await page.screenshot({ path: file });
        return file;
      },
      close,
    };
    await workbench.panel(90_000);
    step('panel shown');
    return workbench;
  } catch (error) {
    await close();
    throw error;
  }
}
