import type { AgentControl, SubagentStatus } from '../../tools';
import type { Agent } from '../agentLoop';
import type { DoneEvent } from '../taskEnd';

// One subagent: an agent of its own (its conversation, its lane) and where it stands. Each task it is given
// (the spawn's message, then what send_input sends once it has answered) runs under a signal of its own
// joined to the parent's task's: the parent's Stop stops it, and close_agent or an interrupt stops it alone.

/** A subagent's agent, and what stops the commands it left running in the background. */
export interface Child {
  agent: Agent;
  stopCommands(): Promise<void>;
}

type SendAnswer = Awaited<ReturnType<AgentControl['send']>>;

export class Subagent {
  private state: SubagentStatus = 'pending_init';
  /** A wait already returned this final status: it does not end another wait by itself. */
  reported = false;
  private closed = false;
  /** Its task is being stopped for another (send_input's interrupt): that end is not a status of its own. */
  private superseded = false;
  /** The running task's stop, and its end. */
  private stop: AbortController | undefined;
  private running: Promise<void> = Promise.resolve();
  /** The subagent's last answer (its last message that was not a progress note). */
  private answer: string | null = null;

  /** Its agent, once built: a subagent brought back with its parent's session is built when it is sent input. */
  private built: Child | undefined;
  /** Its agent's lane is open (or opening): a subagent brought back opens it at its first task. */
  private launched = false;

  constructor(
    readonly id: string,
    private readonly make: () => Child,
    /** The parent's task's signal now (a subagent outlives the call that started it, not the task). */
    private readonly taskSignal: () => AbortSignal,
    /** Called whenever its status changes. */
    private readonly changed: () => void,
  ) {}

  get status(): SubagentStatus {
    return this.state;
  }

  /** Starting or running a task: what the parent's task waits for, and what counts against the cap. */
  get busy(): boolean {
    return this.state === 'pending_init' || this.state === 'running';
  }

  /** A message it wrote (its events pass here): the last one that is not a progress note is its answer. */
  heard(text: string, phase: string | undefined): void {
    if (phase !== 'commentary' && text !== '') this.answer = text;
  }

  /**
   * Where it stood when its parent's session was kept (a resumed session): nothing runs, and the status is
   * old news to the parent; one that was closed stays closed, any other takes input again.
   */
  restore(status: SubagentStatus): void {
    this.state = status;
    this.closed = status === 'shutdown';
    this.reported = true;
  }

  /** Opens its lane (the warm-up), then runs its first task; a lane that cannot open ends it as errored. */
  launch(message: string): void {
    this.launched = true;
    // Starting, at once: a wait from here on is for this task's answer, not the one it had (a resumed one).
    if (this.state !== 'pending_init') this.set('pending_init');
    this.running = this.agent.start().then(
      () => this.runTask(message),
      (error: unknown) => this.set({ errored: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Input from the parent (send_input). */
  async send(message: string, interrupt: boolean, submissionId: string): Promise<SendAnswer> {
    if (this.closed) return { refused: `agent with id ${this.id} is closed` };
    if (!this.launched) {
      this.launch(message);
      return { submissionId };
    }
    if (this.busy && !interrupt && this.agent.steer(message)) return { submissionId };
    if (this.busy) {
      this.superseded = true;
      this.stop?.abort();
      await this.running;
      this.superseded = false;
    }
    this.running = this.runTask(message);
    return { submissionId };
  }

  /** Stops it for good (close_agent, or the parent's task ended otherwise than completed): its status before. */
  async close(): Promise<SubagentStatus> {
    const before = this.state;
    this.closed = true;
    this.stop?.abort();
    await this.running;
    this.set('shutdown');
    return before;
  }

  /** Stops the commands it left running in the background. */
  stopCommands(): Promise<void> {
    return this.built?.stopCommands() ?? Promise.resolve();
  }

  private get child(): Child {
    return (this.built ??= this.make());
  }

  private get agent(): Agent {
    return this.child.agent;
  }

  /** Resolves when its running task has ended (at once when none runs). */
  settled(): Promise<void> {
    return this.running;
  }

  /** One task, to its end; what was steered in as it ended runs as the next one. */
  private async runTask(message: string): Promise<void> {
    if (this.closed) return;
    const stop = (this.stop = new AbortController());
    this.answer = null;
    this.set('running');
    const signal = AbortSignal.any([stop.signal, this.taskSignal()]);
    // A command it waits on would hold the stop back until it ends: its commands are stopped with it.
    const stopCommands = () => void this.child.stopCommands();
    signal.addEventListener('abort', stopCommands, { once: true });
    const done = await this.agent.run(message, signal);
    signal.removeEventListener('abort', stopCommands);
    if (this.superseded) return;
    const late = this.agent.takeSteers();
    if (late.length > 0 && done.status === 'completed' && !this.closed) return this.runTask(late.join('\n\n'));
    this.set(this.closed ? 'shutdown' : this.ended(done));
  }

  private ended(done: DoneEvent): SubagentStatus {
    return done.status === 'completed' ? { completed: this.answer } : { errored: done.reason };
  }

  private set(status: SubagentStatus): void {
    this.state = status;
    this.reported = false;
    this.changed();
  }
}
