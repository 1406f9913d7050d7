import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { CommandEnd, CommandProgress, CommandProcess } from '../workspace';
import { OutputTail } from './outputTail';
import type { TaskSpec } from './taskDiscovery';
import { KILL_GRACE_MS, killTree } from './taskProcess';
import { spawnTask } from './taskSpawn';

// A shell command that runs on in the background (the port's `startCommand`): a child process in its own
// group, as a task is run, but with a pipe to its standard input, so that the agent can answer a prompt or
// send keys to it later, and with its output handed out piece by piece rather than at its end.

/** Starts `task` (a shell command); `onOutput` sees what it prints as it prints it (a terminal's mirror). */
export function startTaskProcess(
  task: TaskSpec,
  timeoutMs: number,
  onOutput?: (chunk: Buffer) => void,
): CommandProcess {
  if (task.run.kind !== 'shell') throw new Error('Only a shell command runs as a session.');
  const spawned = spawnTask(task, ['pipe', 'pipe', 'pipe']);
  const child = spawned.child as ChildProcessWithoutNullStreams;
  const session = new ChildProcessCommand(child, spawned.program, timeoutMs, onOutput, () => spawned.cleanup());
  for (const warning of spawned.warnings) session.note(`(sandbox) ${warning}\n`);
  return session;
}

class ChildProcessCommand implements CommandProcess {
  readonly ended: Promise<CommandEnd>;
  private pending = new OutputTail();
  private end: CommandEnd | undefined;
  private stopped = false;
  private timedOut = false;
  private readonly started = Date.now();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Wakes a `read` waiting for the end. */
  private wake: () => void = () => undefined;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    shell: string,
    timeoutMs: number,
    onOutput?: (chunk: Buffer) => void,
    /** Once it has exited: what its sandbox left on disk goes. */
    private readonly cleanup: () => void = () => undefined,
  ) {
    const take = (chunk: Buffer) => {
      this.pending.push(chunk);
      onOutput?.(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    // A command that exits without reading its input must not crash the agent with EPIPE.
    child.stdin.on('error', () => undefined);
    this.ended = new Promise((resolve) => {
      const finish = (exitCode: number | null, failure?: string) => {
        if (this.end) return;
        if (failure !== undefined) this.pending.push(Buffer.from(failure));
        this.end = { exitCode: this.stopped ? null : exitCode, timedOut: this.timedOut, durationMs: this.elapsed() };
        this.settle();
        resolve(this.end);
        this.wake();
      };
      child.on('error', (error) => finish(null, `could not start ${shell}: ${error.message}\n`));
      child.on('exit', (code) => {
        // Let the pipes drain what was already written, briefly.
        const drain = setTimeout(() => finish(code), 100);
        child.on('close', () => {
          clearTimeout(drain);
          finish(code);
        });
      });
    });
    this.timers.push(
      setTimeout(() => {
        this.timedOut = true;
        void this.stop();
      }, timeoutMs),
    );
  }

  /** A line of Loopwire's own before the command's output (what the sandbox changed for this run). */
  note(text: string): void {
    this.pending.push(Buffer.from(text));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async write(chars: string): Promise<boolean> {
    if (this.end || !this.child.stdin.writable) return false;
    return new Promise((resolve) => this.child.stdin.write(chars, (error) => resolve(!error)));
  }

  async read(waitMs: number): Promise<CommandProgress> {
    if (!this.end && waitMs > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const taken = this.pending;
    this.pending = new OutputTail();
    return { output: taken.text(), outputTruncated: taken.truncated, end: this.end };
  }

  async stop(): Promise<void> {
    const pid = this.child.pid;
    // Ended, its group may still hold what it started in the background (`server &`): that goes at once.
    if (this.end && pid !== undefined) killTree(pid, 'SIGKILL');
    else if (pid !== undefined) {
      this.stopped = true;
      killTree(pid, 'SIGTERM');
      this.timers.push(setTimeout(() => killTree(pid, 'SIGKILL'), KILL_GRACE_MS));
    }
    await this.ended;
  }

  /** Once the command is over: what it started and left behind goes too, and nothing keeps the agent alive. */
  private settle(): void {
    for (const timer of this.timers) clearTimeout(timer);
    if (this.stopped && this.child.pid !== undefined) killTree(this.child.pid, 'SIGKILL');
    this.child.stdin.destroy();
    this.cleanup();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }

  private elapsed(): number {
    return Date.now() - this.started;
  }
}
