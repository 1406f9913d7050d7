import type { RunningCommand } from '../protocol/runningCommands';
import type { CommandEnd, CommandProcess } from '../workspace';

// The commands of a chat that run on in the background (exec_command past its yield time), by the session id
// the model names them with in write_stdin. The host owns the registry: it stops them all at Stop, at a new
// chat and when it exits (`stopAll`), so no process outlives the task that started it, and one at a time from
// the panel's list of them (`watch`, `stop`).

/** A change the host may show: a command went on in the background, or one of them ended. */
export type SessionEvent =
  { kind: 'background'; id: number; command: string } | { kind: 'ended'; id: number; command: string; end: CommandEnd };

/** A session as the tools find it by id: the command as the model wrote it, and the timeout it was given. */
export interface Running {
  session: CommandProcess;
  command: string;
  timeoutS: number;
  /** When it started (`performance.now()`), before its yield time; by default when it is added. */
  startedAt?: number;
}

export class BackgroundCommands {
  private next = 1;
  /** Until the model has been told how each ended (its last output and exit code are still to read). */
  private readonly running = new Map<number, Running>();
  /** Until each has ended: what the panel lists, with when it started. */
  private readonly live = new Map<number, { running: Running; startedAt: number }>();
  /** Every session started, ended or not: an ended one's group may still hold what it left running. */
  private readonly started: CommandProcess[] = [];
  /** Settles once every session stopAll was called for is gone. */
  private stopping: Promise<void> = Promise.resolve();
  /** The panel's list, told each change (one panel per window: a later watch replaces it). */
  private watcher: ((commands: RunningCommand[]) => void) | undefined;

  constructor(private readonly onEvent: (event: SessionEvent) => void = () => undefined) {}

  /** Keeps `session` until the model is told it ended; its id. */
  add(running: Running): number {
    const { session, command } = running;
    const id = this.next++;
    this.running.set(id, running);
    this.live.set(id, { running, startedAt: running.startedAt ?? performance.now() });
    this.started.push(session);
    this.onEvent({ kind: 'background', id, command });
    this.changed();
    void session.ended.then((end) => {
      this.live.delete(id);
      this.onEvent({ kind: 'ended', id, command, end });
      this.changed();
    });
    return id;
  }

  get(id: number): Running | undefined {
    return this.running.get(id);
  }

  /** The ids of the sessions the model may still read, in the order they started. */
  ids(): number[] {
    return [...this.running.keys()];
  }

  /** Forgets a session whose end the model has been told: its id answers no more. */
  forget(id: number): void {
    this.running.delete(id);
  }

  /** The commands still running, oldest first, each with how long it has run. */
  list(): RunningCommand[] {
    const now = performance.now();
    return [...this.live].map(([id, { running, startedAt }]) => ({
      id,
      command: running.command,
      runningMs: Math.max(0, Math.round(now - startedAt)),
    }));
  }

  /** Tells `show` the list now and at each change after (a command goes on in the background, or ends). */
  watch(show: (commands: RunningCommand[]) => void): void {
    this.watcher = show;
    show(this.list());
  }

  /**
   * Stops session `id`'s process group (the panel's Stop) and waits until it is gone; the model learns it
   * ended at its next write_stdin, as of one stopped by its timeout. An id that has ended already is no error.
   */
  async stop(id: number): Promise<void> {
    await this.live.get(id)?.running.session.stop();
  }

  /** Stops every command still running and waits until each is gone, those an earlier call stops included. */
  async stopAll(): Promise<void> {
    const all = this.started.splice(0);
    this.running.clear();
    const stopped = Promise.all(all.map((session) => session.stop()));
    // A second call (exec's way out after a signal's) waits for the first's commands too.
    this.stopping = Promise.all([this.stopping, stopped]).then(() => undefined);
    await this.stopping;
  }

  private changed(): void {
    this.watcher?.(this.list());
  }
}
