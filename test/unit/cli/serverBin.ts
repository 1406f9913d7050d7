import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot, runProcess } from '../support/runProcess';

// `loopwire-server` as a user runs it, for the CLI's tests: the built bundle in a child process, each test
// with a scratch folder, every process it started stopped after it.

export const bin = path.join(repoRoot, 'dist/cli/loopwire-server.js');

export interface Running {
  url: string;
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once the process has exited and its output is all read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running: Running[] = [];

/** This process's environment without the token variable, plus `extra`. */
function envWith(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!('LOOPWIRE_SERVER_TOKEN' in extra)) delete env.LOOPWIRE_SERVER_TOKEN;
  return env;
}

/** Starts the bin and waits for the first line on stdout: the base URL. */
export async function launch(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: envWith(env) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stdout within 10 s; stderr: ${stderr}`)), 10_000);
    child.stdout.on('data', () => {
      const end = stdout.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      resolve(stdout.slice(0, end));
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing its URL; stderr: ${stderr}`));
    });
  });
  const handle = { url, child, stdout: () => stdout, stderr: () => stderr, exited };
  running.push(handle);
  return handle;
}

/** Runs the bin to completion (for the refusals). */
export const runToEnd = (args: string[]) => runProcess(process.execPath, [bin, ...args]);

/** Runs the bin to completion with `env` added to a token-free environment. */
export const runWithEnv = (args: string[], env: Record<string, string>) =>
  runProcess(process.execPath, [bin, ...args], '', envWith(env));

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const URL_LINE = /^http:\/\/127\.0\.0\.1:(\d+)\/v1$/;

/** Builds the bundles if a bare mocha run has none; gives each test a scratch folder (`use`), removed after it. */
export function useServerBin(use: (folder: string) => void): void {
  let dir = '';
  before(function () {
    if (fs.existsSync(bin)) return;
    // `npm test` builds first; a bare mocha run builds the bundles here.
    this.timeout(120_000);
    execFileSync(process.execPath, ['esbuild.js'], { cwd: repoRoot, stdio: 'inherit' });
  });
  beforeEach(() => use((dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-cli-')))));
  afterEach(async () => {
    for (const { child, exited } of running.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
