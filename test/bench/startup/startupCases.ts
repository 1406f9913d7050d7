// What the startup bench runs: Node's own start, then each bin as a user runs it, on files in a temp folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startServerProcess } from '../loop/serverProcess';

const repoRoot = path.resolve(__dirname, '../../..');
const loopwire = path.join(repoRoot, 'dist/cli/loopwire.js');
const loopwireServer = path.join(repoRoot, 'dist/cli/loopwire-server.js');

/** One command to time; `check` says what is wrong with a run's output, or nothing. */
export interface StartupCase {
  name: string;
  /** To the exit, to the first line on stdout, or to the first byte on stdout after that line (exec's header). */
  measures: 'exit' | 'first line' | 'first model output';
  /** The goal for the median, where it sets one (issue 31). */
  goalMs?: number;
  prepare: () => { file: string; args: string[]; stdin?: string };
  check: (stdout: string, code: number | null) => string | undefined;
}

const exitZero = (code: number | null) => (code === 0 ? undefined : `exit code ${code}`);

/** A patch of one line of one file, from `from` to `to`. */
const onePatch = (from: string, to: string) =>
  `*** Begin Patch\n*** Update File: src/greeting.txt\n@@\n-${from}\n+${to}\n*** End Patch\n`;

/** The cases, with the files they work on written under `base`, and the running server `close` stops. */
export async function startupCases(base: string): Promise<{ cases: StartupCase[]; close: () => Promise<void> }> {
  const files = path.join(base, 'files');
  fs.mkdirSync(path.join(files, 'src'), { recursive: true });
  fs.writeFileSync(path.join(files, 'src/greeting.txt'), 'hello\n');
  fs.writeFileSync(path.join(files, 'README.md'), '# files\n\nA folder for the startup bench.\n');
  const frames = path.join(base, 'frames.jsonl');
  fs.writeFileSync(
    frames,
    '{"model":"gpt-5.5","input":"Say hi"}\n{"type":"response.create","model":"gpt-5.5","input":[]}\n',
  );
  const workspace = path.join(base, 'workspace');
  fs.cpSync(path.join(repoRoot, 'demo/workspace'), workspace, { recursive: true });
  const sessions = path.join(base, 'sessions');
  const exec = ['exec', '--workspace', workspace, '--sessions-dir', sessions, '--approve', 'read-only'];
  const prompt = 'Fix the failing test.';
  // Each apply-patch run changes the file, the next one changes it back: every run writes.
  let flips = 0;
  const server = await startServerProcess([], { auth: false });
  const cases: StartupCase[] = [
    {
      name: 'node -e 0',
      measures: 'exit',
      prepare: () => ({ file: process.execPath, args: ['-e', '0'] }),
      check: (_, code) => exitZero(code),
    },
    {
      name: 'loopwire --help',
      measures: 'exit',
      goalMs: 80,
      prepare: () => ({ file: process.execPath, args: [loopwire, '--help'] }),
      check: (stdout, code) => exitZero(code) ?? (stdout.startsWith('usage: loopwire') ? undefined : stdout),
    },
    {
      name: 'loopwire apply-patch (one file)',
      measures: 'exit',
      goalMs: 90,
      prepare: () => {
        const patch = flips++ % 2 === 0 ? onePatch('hello', 'hello, world') : onePatch('hello, world', 'hello');
        return { file: process.execPath, args: [loopwire, 'apply-patch', '--cwd', files], stdin: patch };
      },
      check: (stdout, code) => exitZero(code) ?? (stdout.includes('applied: 1 file changed') ? undefined : stdout),
    },
    {
      name: 'loopwire tool read_file',
      measures: 'exit',
      prepare: () => ({
        file: process.execPath,
        args: [loopwire, 'tool', 'read_file', '{"path":"README.md"}', '--cwd', files],
      }),
      check: (stdout, code) =>
        exitZero(code) ?? (stdout.includes('A folder for the startup bench.') ? undefined : stdout),
    },
    {
      name: 'loopwire validate (2 frames)',
      measures: 'exit',
      prepare: () => ({ file: process.execPath, args: [loopwire, 'validate', frames] }),
      check: (stdout, code) => exitZero(code) ?? (stdout.includes('2 valid, 0 invalid') ? undefined : stdout),
    },
    {
      name: 'loopwire exec (embedded server)',
      measures: 'first line',
      goalMs: 150,
      prepare: () => ({ file: process.execPath, args: [loopwire, ...exec, prompt] }),
      check: (_, code) => exitZero(code),
    },
    {
      name: 'loopwire exec (embedded server), the model',
      measures: 'first model output',
      prepare: () => ({ file: process.execPath, args: [loopwire, ...exec, prompt] }),
      check: (_, code) => exitZero(code),
    },
    {
      name: 'loopwire exec --endpoint (a running server)',
      measures: 'first line',
      goalMs: 150,
      prepare: () => ({ file: process.execPath, args: [loopwire, ...exec, '--endpoint', server.url, prompt] }),
      check: (_, code) => exitZero(code),
    },
    {
      name: 'loopwire exec --endpoint, the model',
      measures: 'first model output',
      prepare: () => ({ file: process.execPath, args: [loopwire, ...exec, '--endpoint', server.url, prompt] }),
      check: (_, code) => exitZero(code),
    },
    {
      name: 'loopwire-server',
      measures: 'first line',
      goalMs: 150,
      prepare: () => ({ file: process.execPath, args: [loopwireServer, '--port', '0'] }),
      check: (stdout, code) => exitZero(code) ?? (/^http:\/\/127\.0\.0\.1:\d+\/v1\n/.test(stdout) ? undefined : stdout),
    },
  ];
  return { cases, close: () => server.close() };
}
