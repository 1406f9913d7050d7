import * as z from 'zod';

// What the subagent tools (spawnAgent.ts, sendInput.ts, waitAgents.ts, closeAgent.ts) ask of the agent that
// runs them: the agent core keeps the subagents (src/agent/subagents), and the tools only parse the model's
// arguments, hand them over and write the answer back as JSON, in the shapes Codex's models are trained on
// (codex-rs multi_agents.rs: `{agent_id}`, `{submission_id}`, `{status, timed_out}`, `{status}`).

/**
 * Where a subagent stands, as the model reads it in `wait`'s and `close_agent`'s answers: Codex's statuses,
 * by their names (`{"completed": "its answer"}`, `{"errored": "why"}`, or one word).
 */
export const SubagentStatus = z.union([
  z.enum(['pending_init', 'running', 'shutdown', 'not_found']),
  z.strictObject({ completed: z.string().nullable() }),
  z.strictObject({ errored: z.string() }),
]);
export type SubagentStatus = z.infer<typeof SubagentStatus>;

/** A status after which a subagent does nothing more until it is sent input: what `wait` waits for. */
export const isFinalStatus = (status: SubagentStatus): boolean => status !== 'pending_init' && status !== 'running';

/** What a spawn asks for. `callId`: the spawning call's, which the subagent's events name as their parent. */
export interface SpawnRequest {
  message: string;
  agentType: string | undefined;
  forkContext: boolean;
  callId: string;
}

/** The calling task's Stop, with every call: a subagent runs under the task's signal, and a wait ends with it. */
export type TaskSignal = AbortSignal | undefined;

/** A refusal the model is told as the call's output (an unknown id, the cap reached): never thrown. */
export interface Refusal {
  refused: string;
}

/** The agent's side of the subagent tools: `ToolContext.agents`, present where the agent may start subagents. */
export interface AgentControl {
  spawn(request: SpawnRequest, signal: TaskSignal): Promise<{ agentId: string } | Refusal>;
  /** Input for a subagent: steered into its running task, or (interrupt) its task stopped and begun anew with it. */
  send(
    id: string,
    message: string,
    interrupt: boolean,
    signal: TaskSignal,
  ): Promise<{ submissionId: string } | Refusal>;
  /**
   * Resolves once one of `ids` has reached a final status not yet reported by an earlier wait, or after
   * `timeoutMs`: every final status among `ids` then (empty when it timed out with none).
   */
  wait(
    ids: readonly string[],
    timeoutMs: number,
    signal: TaskSignal,
  ): Promise<{ status: Record<string, SubagentStatus>; timedOut: boolean }>;
  /** Stops the subagent (its running task ends, its tools with it): its status before it was closed. */
  close(id: string, signal: TaskSignal): Promise<{ status: SubagentStatus } | Refusal>;
}
