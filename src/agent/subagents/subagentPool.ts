import { randomBytes } from 'node:crypto';
import { type AgentControl, type SpawnRequest, type SubagentStatus, type TaskSignal, isFinalStatus } from '../../tools';
import type { TaskHelpers } from '../agentOptions';
import type { Transcript } from '../conversation/transcript';
import type { AgentEvent, AgentEventSink } from '../events';
import { answerOpenCalls } from './forkContext';
import { type Child, Subagent } from './subagent';

export type { Child } from './subagent';

// The subagents one agent started: what its subagent tools call (`ToolContext.agents`, AgentControl), and
// what its task waits for before its `done` (TaskHelpers). Each subagent is an agent of its own on its own
// lane of the parent's socket (`subagent-ID`), emitting through the parent's sink with `agent` naming it and
// the call that started it. A cap bounds how many run at once; the parent's Stop stops them all (their
// signals join the task's); a task that completes waits for those still running before its `done`.

/** What a resumed task is told of a subagent that was still working when its session ended. */
const CUT_SHORT =
  'The session ended before this subagent answered. Send it input to have it go on in its own conversation.';

/** Subagents running at once, by default. */
export const DEFAULT_MAX_RUNNING = 4;

/** What a subagent is built as: its lane, conversation and sink; `agentType` as the spawn asked. */
export interface ChildSpec {
  lane: string;
  transcript: Transcript;
  emit: AgentEventSink;
  agentType: string | undefined;
  /** Started from a copy of the parent's conversation (`fork_context`): its lane forks the parent's. */
  forked: boolean;
}

export interface PoolOptions {
  /** The parent's conversation, which a spawn with `fork_context` copies. */
  parent: Transcript;
  /** A subagent's agent (the same model, tools, approvals and sandbox as the parent's; no spawning). */
  makeChild(spec: ChildSpec): Child;
  emit: AgentEventSink;
  maxRunning?: number | undefined;
}

const newId = () => randomBytes(4).toString('hex');

/** Each conversation's subagents (a chat's agent's), so that a front end holding the conversation can stop one. */
const pools = new WeakMap<Transcript, SubagentPool>();

/**
 * The user's Stop on subagent `id` of conversation `transcript` (the panel's nested card): it alone stops, as
 * close_agent stops it — its response cancelled, its commands stopped, `shutdown` to the parent's wait — and
 * the task goes on. False where no such subagent runs.
 */
export function stopSubagent(transcript: Transcript, id: string): Promise<boolean> {
  return pools.get(transcript)?.stop(id) ?? Promise.resolve(false);
}

export class SubagentPool implements AgentControl, TaskHelpers {
  private readonly agents = new Map<string, Subagent>();
  private taskSignal: AbortSignal = new AbortController().signal;
  /** Woken on every change of a subagent's status (the waits). */
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: PoolOptions) {
    pools.set(options.parent, this);
    this.restore();
  }

  /** Every call comes with its task's signal: the subagents run under the latest, and waits end with it. */
  private task(signal: TaskSignal): void {
    if (signal) this.taskSignal = signal;
  }

  /**
   * The parent's task ended `status`: those still running are waited for when it completed (unless it is
   * stopped meanwhile, which stops them), and stopped otherwise.
   */
  async settle(status: string): Promise<void> {
    const busy = [...this.agents.values()].filter((agent) => agent.busy);
    if (status !== 'completed' || this.taskSignal.aborted) await Promise.all(busy.map((agent) => agent.close()));
    else await Promise.all(busy.map((agent) => agent.settled()));
    // Nothing a task's subagents started outlives the task: commands they left in the background stop.
    await Promise.all([...this.agents.values()].map((agent) => agent.stopCommands()));
  }

  spawn(request: SpawnRequest, signal: TaskSignal): Promise<{ agentId: string } | { refused: string }> {
    this.task(signal);
    const max = this.options.maxRunning ?? DEFAULT_MAX_RUNNING;
    const busy = [...this.agents.values()].filter((agent) => agent.busy).length;
    if (busy >= max)
      return Promise.resolve({
        refused: `At most ${max} subagents run at once, and ${busy} are running. Wait for one to finish or close one, then spawn again; or do this part yourself.`,
      });
    const id = newId();
    const parent = this.options.parent;
    // Its conversation is kept in the parent's transcript (a resumed task knows it); a fork's starts as the parent's.
    const transcript = parent.subagent(id, {
      parentCallId: request.callId,
      ...(request.agentType === undefined ? {} : { agentType: request.agentType }),
      model: parent.header.model,
      ...(request.forkContext ? { forkedAt: parent.items.length } : {}),
    });
    if (request.forkContext) answerOpenCalls(transcript, request.callId);
    const subagent = this.add(id, request.callId, transcript, request.agentType, request.forkContext);
    subagent.launch(request.message);
    return Promise.resolve({ agentId: id });
  }

  /** Subagent `id` of spawn call `parentCallId`, its agent built when first needed. */
  private add(
    id: string,
    parentCallId: string,
    transcript: Transcript,
    agentType: string | undefined,
    forked: boolean,
  ): Subagent {
    const ref = { id, parentCallId };
    const emit = (event: AgentEvent) => {
      if (event.type === 'message') this.agents.get(id)?.heard(event.text, event.phase);
      this.options.emit({ ...event, agent: ref });
    };
    const make = () => this.options.makeChild({ lane: `subagent-${id}`, transcript, emit, agentType, forked });
    const subagent = new Subagent(
      id,
      make,
      () => this.taskSignal,
      () => this.changed(id),
    );
    this.agents.set(id, subagent);
    return subagent;
  }

  /**
   * The subagents the parent's transcript kept (a resumed session), as they stood: a final status kept is
   * theirs; one still running when the session ended was cut short, and says so. Sent input, one goes on in
   * its own conversation.
   */
  private restore(): void {
    for (const kept of this.options.parent.subagents) {
      const { id, start, transcript, status } = kept;
      const subagent = this.add(id, start.parentCallId, transcript, start.agentType, false);
      subagent.restore(status && isFinalStatus(status) ? status : { errored: CUT_SHORT });
    }
  }

  /** A subagent's status changed: a final one is kept with the parent's transcript, and the waits wake. */
  private changed(id: string): void {
    const status = this.agents.get(id)?.status;
    if (status && isFinalStatus(status)) this.options.parent.keepStatus(id, status);
    this.wake();
  }

  send(
    id: string,
    message: string,
    interrupt: boolean,
    signal: TaskSignal,
  ): Promise<{ submissionId: string } | { refused: string }> {
    this.task(signal);
    const agent = this.agents.get(id);
    if (!agent) return Promise.resolve({ refused: `agent with id ${id} not found` });
    return agent.send(message, interrupt, newId());
  }

  async wait(
    ids: readonly string[],
    timeoutMs: number,
    signal: TaskSignal,
  ): Promise<{ status: Record<string, SubagentStatus>; timedOut: boolean }> {
    this.task(signal);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.finals(ids);
      if (found) return { status: found, timedOut: false };
      const left = deadline - Date.now();
      if (left <= 0 || this.taskSignal.aborted) return { status: {}, timedOut: true };
      await this.change(left);
    }
  }

  /** Stops subagent `id` if it runs (stopSubagent): false where it does not. */
  async stop(id: string): Promise<boolean> {
    const agent = this.agents.get(id);
    if (!agent?.busy) return false;
    await agent.close();
    return true;
  }

  async close(id: string, signal: TaskSignal): Promise<{ status: SubagentStatus } | { refused: string }> {
    this.task(signal);
    const agent = this.agents.get(id);
    if (!agent) return { refused: `agent with id ${id} not found` };
    return { status: await agent.close() };
  }

  /**
   * The final statuses among `ids`, once one of them was not reported before (or all were): then each is
   * marked reported. Undefined while the wait goes on.
   */
  private finals(ids: readonly string[]): Record<string, SubagentStatus> | undefined {
    const status: Record<string, SubagentStatus> = {};
    let fresh = false;
    for (const id of new Set(ids)) {
      const agent = this.agents.get(id);
      const now = agent?.status ?? 'not_found';
      if (!isFinalStatus(now)) continue;
      status[id] = now;
      if (!agent?.reported) fresh = true;
    }
    const all = Object.keys(status).length === new Set(ids).size;
    if (!fresh && !all) return undefined;
    for (const id of Object.keys(status)) {
      const agent = this.agents.get(id);
      if (agent) agent.reported = true;
    }
    return status;
  }

  /** Resolves at the next change of a status, after `ms`, or when the task is stopped. */
  private change(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(done);
        this.taskSignal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.listeners.add(done);
      this.taskSignal.addEventListener('abort', done);
    });
  }

  private wake(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
