import type { CommandEnd, CommandSession } from '../workspace';

// The commands of a chat that run on in the background (exec_command past its yield time), by the session id
// the model names them with in write_stdin. The host owns the registry: it stops them all at Stop, at a new
// chat and when it exits (`stopAll`), so no process outlives the task that started it.

/** A change the host may show: a command went on in the background, or one of them ended. */
export type SessionEvent =
  { kind: 'background'; id: number; command: string } | { kind: 'ended'; id: number; command: string; end: CommandEnd };

/** A session as the tools find it by id: the command as the model wrote it, and the timeout it was given. */
export interface Running {
  session: CommandSession;
  command: string;
  timeoutS: number;
}

export class CommandSessions {
  private next = 1;
  /** Until the model has been told how each ended (its last output and exit code are still to read). */
  private readonly running = new Map<number, Running>();
  /** Every session started, ended or not: an ended one's group may still hold what it left running. */
  private readonly started: CommandSession[] = [];
  /** Settles once every session stopAll was called for is gone. */
  private stopping: Promise<void> = Promise.resolve();

  constructor(private readonly onEvent: (event: SessionEvent) => void = () => undefined) {}

  /** Keeps `session` until the model is told it ended; its id. */
  add(running: Running): number {
    const { session, command } = running;
    const id = this.next++;
    this.running.set(id, running);
    this.started.push(session);
    this.onEvent({ kind: 'background', id, command });
    void session.ended.then((end) => this.onEvent({ kind: 'ended', id, command, end }));
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

  /** Stops every command still running and waits until each is gone, those an earlier call stops included. */
  async stopAll(): Promise<void> {
    const all = this.started.splice(0);
    this.running.clear();
    const stopped = Promise.all(all.map((session) => session.stop()));
    // A second call (exec's way out after a signal's) waits for the first's commands too.
    this.stopping = Promise.all([this.stopping, stopped]).then(() => undefined);
    await this.stopping;
  }
}
