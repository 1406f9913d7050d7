import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ConfinedSpawn } from '../sandbox';

// A stdio MCP server started inside the OS sandbox: the SDK's StdioClientTransport, as far as the client can
// tell (newline-delimited JSON-RPC on stdin and stdout, stderr piped), but spawned as src/sandbox asks a
// confined process to be — detached, in its own session and process group (no terminal of the user's to type
// into; one signal reaches the whole sandbox) — and with the confinement's cleanup (the mount points it made)
// once it has ended. The SDK's transport spawns for itself and offers neither. Stopping it is the SDK's
// sequence, sent to the group: its stdin closed, SIGTERM after 2 s, SIGKILL after 2 more (a sandbox stopped
// while it is being set up ignores SIGTERM). If Loopwire itself dies first, bwrap's --die-with-parent ends it.

const GRACE_MS = 2_000;

/** Resolves true once `done` settles, false after `ms`. */
function within(done: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    void done.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export class ConfinedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, there before it starts (nothing of its first words is lost). */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  /** Settles once the process has ended and its confinement is cleaned up. */
  private ended: Promise<void> = Promise.resolve();
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly confined: ConfinedSpawn,
    private readonly cwd: string,
  ) {}

  /** The sandbox's process id (bwrap's, or sandbox-exec's) once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ConfinedStdioTransport already started');
    const confined = this.confined;
    const child = spawn(confined.file, confined.args, {
      cwd: this.cwd,
      env: confined.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    this.child = child;
    this.ended = new Promise((resolve) => {
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        confined.cleanup();
        resolve();
      };
      // A spawn that failed may never 'close'; the cleanup runs either way.
      child.once('error', end);
      child.once('close', end);
    });
    child.once('close', () => {
      if (this.child === child) this.child = undefined;
      this.onclose?.();
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
    child.stderr?.pipe(this.stderr);
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the server and everything in its sandbox; resolves once it has ended and been cleaned up. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      child.stdin?.end();
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        if (await within(exited, GRACE_MS)) break;
        signalGroup(child, signal);
      }
      await within(this.ended, GRACE_MS);
    }
    this.buffer.clear();
  }

  /** As the SDK reads: a line that is not JSON-RPC is an error, and the lines after it are still read. */
  private read(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A line past the buffer's limit: the server is not speaking MCP; it is ended, as the SDK ends it.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

/** `signal` to `child`'s process group (the sandbox and all it started); to the child alone on Windows. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Gone already.
  }
}
