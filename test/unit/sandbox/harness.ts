import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type ConfinedSpawn, type Confinement, confineSpawn, sandboxSupport } from '../../../src/sandbox';

// What the sandbox's tests share: a git repository to work in, a way to run a command confined as the
// adapters will (the returned file, args and env, in the spec's cwd, its own process group), and the skip,
// with its reason printed, where this machine has no bubblewrap.

export interface Run {
  code: number | null;
  /** Standard output and error, interleaved as they came. */
  output: string;
  confined: ConfinedSpawn;
}

/** Skips the calling suite or test where bwrap cannot run here, saying why (never silently). */
export function requireBwrap(context: Mocha.Context): void {
  const support = sandboxSupport('linux');
  if (process.platform === 'linux' && support.available) return;
  const why = support.available ? `this is ${process.platform}` : support.reason;
  console.log(`      (skipped: the sandbox's own tests need bubblewrap on Linux: ${why})`);
  context.skip();
}

/** A fresh folder (real path) under the OS temp folder, holding a git repository with one commit. */
export function makeRepo(prefix = 'sandbox'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `loopwire-${prefix}-`)));
  fs.writeFileSync(path.join(dir, 'README.md'), '# a repository\n');
  const git = (...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.toString()}`);
  };
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  return dir;
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export const workspaceWrite = (roots: string[], network = false): Confinement => ({
  policy: { mode: 'workspace-write', network },
  roots,
});

export const readOnly = (roots: string[], network = false): Confinement => ({
  policy: { mode: 'read-only', network },
  roots,
});

/** Runs `script` with sh in `cwd`, confined by `confinement`; cleans up after it. */
export function runConfined(
  script: string,
  cwd: string,
  confinement: Confinement,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Run> {
  return runFileConfined('sh', ['-c', script], cwd, confinement, env);
}

export function runFileConfined(
  file: string,
  args: string[],
  cwd: string,
  confinement: Confinement,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Run> {
  const confined = confineSpawn({ file, args, cwd, env }, confinement);
  return new Promise((resolve, reject) => {
    const child = spawn(confined.file, confined.args, { cwd, env: confined.env, detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      confined.cleanup();
      resolve({ code, output, confined });
    });
  });
}

/** Waits until `check` holds, or throws after `ms`. */
export async function until(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
