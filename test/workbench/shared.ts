import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { type Browser, chromium } from 'playwright-core';
import { endWindowProcesses, windowProcesses } from './serverProcesses';
import {
  CHROMIUM,
  freePort,
  installExtension,
  installVsix,
  startCodeServer,
  stopProcessGroup,
  writeUserSettings,
} from './codeServer';
import { packagedVsix } from './vsix';

// What the workbench suites of one mocha run share (issue 52, item 3). A suite's start was code-server (0.4-1 s),
// Chromium (0.4 s) and its window (page, extension host, panel: 8-12 s); a second window on a warm code-server
// comes about 3 s sooner than the first. So the run has one Chromium, each suite in a browser context of its
// own (the workbench keeps its state, the extensions' global state and the keys in the browser: a fresh
// context is a fresh one of each), and one code-server, each suite on a fresh copy of its workspace. Between
// suites the harness gives the next one the profile as new: the user settings written again (a picker
// writes them), no hot-exit backups and no extension-host logs of the suites before (suites read both), and
// the processes the last window started ended (its extension host, its terminals' shells). The wire log the
// suite names (LOOPWIRE_WIRE_LOG, which the extension host inherits from the server) is a link the harness
// points at the suite's file; its user settings (its own over the defaults) are written before its window
// opens. A suite gets a code-server of its own where it needs another: the .vsix install, another LOOPWIRE_*
// variable (the sandbox switch). A suite that changes the
// profile's display language (argv.json, languagepacks.json) has those files put back after it.
// Chromium reads its environment at launch, so a suite that changes it (l10n's FONTCONFIG_FILE) gets its
// own. Outside a mocha run (the benches) there is no pool: each workbench starts and ends its own.

export interface ServerOptions {
  install?: 'unpacked' | 'vsix';
  userSettings?: Record<string, unknown>;
}

/** A code-server lent to one workbench. */
export interface ServerLease {
  port: number;
  /** code-server's user data (its logs/ hold the extension host's output channels). */
  userData: string;
  /** The folder Loopwire is installed in. */
  extension: string;
  /** Ends the lease: a server of the suite's own stops, a shared one waits for the next suite. */
  release(): Promise<void>;
}

/** Chromium's switches: only the loopback address resolves, so nothing the workbench asks for leaves the machine. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });

/** What of the harness's environment reaches Chromium's behaviour (its fonts). */
const browserKey = () => JSON.stringify([CHROMIUM, process.env['FONTCONFIG_FILE'] ?? '']);

const WIRE_LOG = 'LOOPWIRE_WIRE_LOG';

/** What of the harness's environment the extension host reads: LOOPWIRE_* (the per-file timer and wire log aside). */
const serverKey = () =>
  JSON.stringify(
    Object.entries(process.env)
      .filter(([name]) => name.startsWith('LOOPWIRE_') && name !== 'LOOPWIRE_FILE_TIMES' && name !== WIRE_LOG)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

const keep = () => process.env['LOOPWIRE_WORKBENCH_KEEP'] === '1';

/** A new code-server in a temporary folder, Loopwire installed as `options` say; its output goes to `log`. */
async function newServer(
  options: ServerOptions,
  log: fs.WriteStream | Writable,
  step: (what: string) => void,
  shared?: { args: string[]; env: NodeJS.ProcessEnv },
): Promise<{ work: string; child: ChildProcess; port: number; extension: string }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-server-'));
  try {
    let extension: string;
    if (options.install === 'vsix') {
      const vsix = await packagedVsix();
      step(`packaged ${vsix}`);
      extension = await installVsix(work, vsix, log);
      step(`installed ${path.basename(extension)} with --install-extension`);
    } else extension = installExtension(path.join(work, 'extensions'));
    const port = await freePort();
    const child = await startCodeServer(work, port, log, options.userSettings, shared?.args, shared?.env);
    return { work, child, port, extension };
  } catch (error) {
    fs.rmSync(work, { recursive: true, force: true, maxRetries: 3 });
    throw error;
  }
}

async function stopServer(server: { work: string; child: ChildProcess; wireLog?: string }): Promise<void> {
  await stopProcessGroup(server.child);
  if (server.wireLog) fs.rmSync(server.wireLog, { force: true });
  if (!keep()) fs.rmSync(server.work, { recursive: true, force: true, maxRetries: 3 });
}

/** A code-server for one workbench alone, stopped with it. */
export async function ownServer(
  options: ServerOptions,
  log: fs.WriteStream,
  step: (what: string) => void,
): Promise<ServerLease> {
  const server = await newServer(options, log, step);
  step(`code-server of its own listening on 127.0.0.1:${server.port}`);
  return {
    port: server.port,
    userData: path.join(server.work, 'user-data'),
    extension: server.extension,
    release: () => stopServer(server),
  };
}

/**
 * The profile of a shared server as a new suite's: the user settings written again (the suite's over the
 * defaults: a window reads them as it opens, so a suite's own settings need no server of their own), and the hot-exit backups
 * and extension-host logs of the windows before moved aside (suites look for their own in them). No window
 * is open: the one before closed, and its processes were ended.
 */
function freshProfile(work: string, userSettings: Record<string, unknown> | undefined): void {
  writeUserSettings(work, userSettings);
  const userData = path.join(work, 'user-data');
  const aside = fs.mkdtempSync(path.join(work, 'earlier-'));
  const backups = path.join(userData, 'User', 'Backups');
  if (fs.existsSync(backups)) fs.renameSync(backups, path.join(aside, 'Backups'));
  const logs = path.join(userData, 'logs');
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs) : [])
    for (const name of fs.readdirSync(path.join(logs, session)))
      if (name.startsWith('exthost'))
        fs.renameSync(path.join(logs, session, name), path.join(aside, `${session}-${name}`));
}

/** Points the shared server's wire-log link at the suite's LOOPWIRE_WIRE_LOG, or at nothing. */
function pointWireLog(link: string): void {
  fs.rmSync(link, { force: true });
  fs.symlinkSync(process.env[WIRE_LOG] ?? '/dev/null', link);
}

/** The profile's display-language files as a suite may write them (languagePack.ts). */
const LANGUAGE_FILES = ['languagepacks.json', path.join('User', 'argv.json')];

/** Each display-language file's text, or undefined where there is none: to see whether a suite changed one. */
function displayLanguage(work: string): (string | undefined)[] {
  return LANGUAGE_FILES.map((file) => {
    try {
      return fs.readFileSync(path.join(work, 'user-data', file), 'utf8');
    } catch {
      return undefined;
    }
  });
}

/** The display-language files as `saved` had them (a file that was not there removed). */
function restoreLanguage(work: string, saved: (string | undefined)[]): void {
  LANGUAGE_FILES.forEach((file, index) => {
    const full = path.join(work, 'user-data', file);
    const text = saved[index];
    if (text === undefined) fs.rmSync(full, { force: true });
    else fs.writeFileSync(full, text);
  });
}

interface Pooled {
  work: string;
  child: ChildProcess;
  port: number;
  extension: string;
  /** The link the server's LOOPWIRE_WIRE_LOG names, pointed at the suite's wire log (or /dev/null). */
  wireLog: string;
}

/** The run's shared Chromium and code-server, handed to one suite after another (mocha runs files in turn). */
export class WorkbenchPool {
  private browser: Promise<Browser> | undefined;
  private server: Pooled | undefined;
  /** Where the shared server's output goes now: the code-server.log of the suite it serves. */
  private sink: NodeJS.WritableStream | undefined;
  private readonly output = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      this.sink?.write(chunk);
      done();
    },
  });

  /** The environment the run started with: a suite that changes it gets a Chromium or code-server of its own. */
  private readonly base = { browser: browserKey(), server: serverKey() };

  /** The run's Chromium (`own: false`), or one for this suite alone where its environment differs. */
  async chromium(): Promise<{ browser: Browser; own: boolean }> {
    if (browserKey() !== this.base.browser) return { browser: await launchChromium(), own: true };
    const launched = (this.browser ??= launchChromium());
    const browser = await launched.catch((error: unknown) => {
      if (this.browser === launched) this.browser = undefined;
      throw error;
    });
    if (browser.isConnected()) return { browser, own: false };
    // A Chromium that went away (it crashed) is launched again for this suite.
    if (this.browser === launched) this.browser = undefined;
    return this.chromium();
  }

  /** The shared code-server where the suite asks for nothing else, else one of its own. */
  async codeServer(options: ServerOptions, log: fs.WriteStream, step: (what: string) => void): Promise<ServerLease> {
    if (options.install === 'vsix' || serverKey() !== this.base.server) return ownServer(options, log, step);
    if (this.server && this.server.child.exitCode !== null) {
      await stopServer(this.server);
      this.server = undefined;
    }
    this.sink = log;
    if (this.server) {
      freshProfile(this.server.work, options.userSettings);
      step(`the run's code-server on 127.0.0.1:${this.server.port}, its profile as new`);
    } else this.server = await this.newShared(options, step);
    const server = this.server;
    pointWireLog(server.wireLog);
    const before = windowProcesses(server.child.pid ?? 0);
    const language = displayLanguage(server.work);
    return {
      port: server.port,
      userData: path.join(server.work, 'user-data'),
      extension: server.extension,
      release: () => {
        if (this.sink === log) this.sink = undefined;
        endWindowProcesses(server.child.pid ?? 0, before);
        // code-server takes the display language from the profile's files for each window it serves (l10n's
        // reload shows it), so the files put back give the next suite's window the language it had: the server
        // stays (a new one's first window costs seconds more than a window on a warm one).
        if (JSON.stringify(displayLanguage(server.work)) !== JSON.stringify(language))
          restoreLanguage(server.work, language);
        return Promise.resolve();
      },
    };
  }

  private async newShared(options: ServerOptions, step: (what: string) => void): Promise<Pooled> {
    const wireLog = path.join(os.tmpdir(), `loopwire-wire-link-${process.pid}-${Date.now()}`);
    const started = await newServer(options, this.output, step, {
      // An extension host whose window closed would wait three hours for it: the harness ends it (above).
      args: ['--reconnection-grace-time', '60'],
      env: { [WIRE_LOG]: wireLog },
    });
    step(`the run's code-server listening on 127.0.0.1:${started.port}`);
    return { ...started, wireLog };
  }

  /** Ends what the run shared: after its last suite (a root after hook, suite.ts). */
  async close(): Promise<void> {
    const browser = this.browser;
    const server = this.server;
    this.browser = undefined;
    this.server = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => undefined);
    if (server) await stopServer(server);
  }
}
