import { spawn } from 'node:child_process';
import { type SandboxPolicy, confineSpawn, tempProgramFolders, withoutSecrets } from '../../sandbox';

// One hook's run: `sh -c COMMAND` in the workspace folder, the event's JSON on stdin, its stdout, stderr and
// exit code back. A hook is a program the user said yes to (docs/security.md), so it runs as an MCP server
// does: in the OS sandbox in `workspace-write` with the network on, unconfined only where the session's
// commands are (`all`) or there is no sandbox. Its environment never holds a key or a secret, confined or
// not. Its own session and process group: a timeout kills the group, whatever it started included.

/** A hook's policy where it is confined: the workspace writable, the network on. */
export const HOOK_POLICY: SandboxPolicy = { mode: 'workspace-write', network: true };

/** The default timeout of a hook, as Claude Code's (seconds). */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** The longest delay a Node timer takes as given (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Output kept of a hook's stdout or stderr. */
const MAX_OUTPUT = 64 * 1024;

export interface HookRun {
  command: string;
  cwd: string;
  /** The workspace folders; the sandbox's writable roots. */
  roots: readonly string[];
  input: string;
  timeoutMs: number;
  /** Confined (the default) or not: the session's commands have full access, or there is no sandbox. */
  confined: boolean;
  env?: NodeJS.ProcessEnv;
}

export type HookExit =
  | { kind: 'exited'; code: number; stdout: string; stderr: string }
  | { kind: 'timeout'; stdout: string; stderr: string }
  | { kind: 'error'; message: string };

/** Runs one hook to its end, its timeout or its failure to start. Never throws. */
export function runHookProcess(run: HookRun): Promise<HookExit> {
  const env = { ...(run.env ?? process.env), LOOPWIRE_PROJECT_DIR: run.cwd, CLAUDE_PROJECT_DIR: run.cwd };
  const spec = { file: '/bin/sh', args: ['-c', run.command], cwd: run.cwd, env };
  let confined;
  try {
    confined = run.confined
      ? confineSpawn(spec, { policy: HOOK_POLICY, roots: run.roots, readable: tempProgramFolders([run.command]) })
      : { file: spec.file, args: spec.args, env: withoutSecrets(env), cleanup: () => undefined };
  } catch (error) {
    return Promise.resolve({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
  const sandboxed = confined;
  return new Promise((resolve) => {
    const child = spawn(sandboxed.file, sandboxed.args, {
      cwd: run.cwd,
      env: sandboxed.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString('utf8')).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(0, MAX_OUTPUT)));
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child.pid);
        // A program that left the group (setsid) may still hold the pipes, and 'close' waits for them: let go.
        child.stdout.destroy();
        child.stderr.destroy();
      },
      // Past 2^31 - 1 ms Node fires a timer at once (a `timeout` of 3,000,000 s killed the hook as it started).
      Math.min(run.timeoutMs, MAX_TIMER_MS),
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      sandboxed.cleanup();
      resolve({ kind: 'error', message: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      sandboxed.cleanup();
      if (timedOut) resolve({ kind: 'timeout', stdout, stderr });
      else resolve({ kind: 'exited', code: code ?? 1, stdout, stderr });
    });
    // A hook that does not read its stdin closes it: not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.input);
  });
}

/** SIGKILL to the process group (the sandbox and all the hook started). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}
