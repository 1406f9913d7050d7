// One child process, run to its end or stopped at a deadline with everything it started (its process group).
import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

export interface CommandOptions {
  cwd: string;
  /** Added to the environment (runEnv's). */
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/** Runs `file args` with nothing on stdin; resolves with its output, whatever its exit. */
export function runCommand(file: string, args: readonly string[], options: CommandOptions): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: { ...runEnv(), ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stop(child.pid);
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        ms: performance.now() - started,
        timedOut,
      });
    });
  });
}

/**
 * This process's environment for a child, without git's variables: a GIT_DIR or GIT_INDEX_FILE set around the
 * eval (a hook, a script) would send the git of a workspace copy, and of every tool run there, to another
 * repository. NO_COLOR keeps the outputs plain.
 */
export function runEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('GIT_')) env[name] = value;
  return env;
}

/** Stops a process and what it started: its group where there are groups. */
function stop(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // ESRCH: it had already ended.
  }
}
