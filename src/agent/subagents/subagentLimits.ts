import type { ApprovalPolicy } from '../approvals/approvals';

// How far subagents go: how many run at once, how deep they nest (a subagent of depth 1 is offered no
// spawn_agent by default, as in Codex), and what a subagent may do — what its parent may, under the same
// approval mode, sandbox and command rules; an `explorer` only reads.

export interface SubagentLimits {
  /** Subagents of one agent running at once (DEFAULT_MAX_RUNNING when not given). */
  maxRunning?: number | undefined;
  /** How deep subagents nest: 1 (the default) lets the agent start subagents, and them none. */
  maxDepth?: number | undefined;
  /** This agent's own depth: 0 for the agent a front end started. */
  depth?: number | undefined;
  /**
   * Told, once the agent is built, how to stop one of its subagents by id (the `agent.id` of its events): a
   * front end's Stop on that subagent alone. Its status becomes `shutdown`, which a wait reports.
   */
  bind?: ((stop: (id: string) => Promise<void>) => void) | undefined;
}

/** Whether an agent under `limits` may start subagents. */
export const spawns = (limits: SubagentLimits | undefined): boolean =>
  limits !== undefined && (limits.depth ?? 0) < (limits.maxDepth ?? 1);

/**
 * A subagent's approvals: its parent's, asked the same way in the same mode; an `explorer`'s decline every
 * write and task (and keep the mode's rules and sandbox for commands that only read).
 */
export function childApprovals(parent: ApprovalPolicy, agentType: string | undefined): ApprovalPolicy {
  if (agentType !== 'explorer') return parent;
  return {
    approve: () => Promise.resolve(false),
    mode: () => 'read-only',
    ...(parent.commandRules ? { commandRules: parent.commandRules.bind(parent) } : {}),
    ...(parent.sandbox ? { sandbox: parent.sandbox.bind(parent) } : {}),
  };
}
