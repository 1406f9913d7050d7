import type { ApprovalMode } from '../approvals/approvals';
import { type CustomAgent, customAgentNamed } from '../customAgents/customAgentDiscovery';

// A prompt file's `agent` (VS Code's front matter: the agent the prompt runs with): VS Code's built-in agents
// map to what Loopwire has — `agent` and `edit` to its own agent, `ask` to the read-only mode (it answers and
// changes nothing), `plan` to plan mode — and any other name to the custom agent of that name, for that prompt
// only. A name that is neither is said, with the agents there are: the prompt is not sent as someone else's.

/** What a prompt's `agent` makes of its run: Loopwire's own agent (in a mode), or a custom agent. */
export type PromptAgent =
  { builtin: 'loopwire'; mode?: 'plan' | 'read-only' } | { custom: CustomAgent } | { problem: string };

const BUILTINS: ReadonlyMap<string, Extract<PromptAgent, { builtin: string }>> = new Map([
  ['agent', { builtin: 'loopwire' }],
  ['edit', { builtin: 'loopwire' }],
  ['ask', { builtin: 'loopwire', mode: 'read-only' }],
  ['plan', { builtin: 'loopwire', mode: 'plan' }],
]);

/** What `agent` (a prompt file's field) names among `agents` (the custom agents the front end reads). */
export function promptAgent(agent: string, agents: readonly CustomAgent[]): PromptAgent {
  const custom = customAgentNamed(agents, agent);
  if (custom) return { custom };
  const builtin = BUILTINS.get(agent.toLowerCase());
  if (builtin) return builtin;
  const here =
    agents.length === 0
      ? 'there are no custom agents here'
      : `the custom agents here are ${agents.map((each) => each.name).join(', ')}`;
  return { problem: `its agent '${agent}' is no agent here (agent, edit, ask, plan, or a custom agent: ${here})` };
}

/**
 * The approval mode in force while a prompt with a mode of its own runs (`/plan`, a prompt file's or a handoff's
 * `ask`/`plan`) over the user's `base`: the stricter of the two — plan, then read-only, then the rest — so that
 * a file from the repository can only narrow what the user allowed (an `ask` prompt in a plan chat stays in plan).
 */
export function stricterMode(base: ApprovalMode, own: 'plan' | 'read-only' | undefined): ApprovalMode {
  if (own === undefined) return base;
  return base === 'plan' || own === 'plan' ? 'plan' : 'read-only';
}
