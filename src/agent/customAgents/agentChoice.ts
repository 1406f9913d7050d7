import { BUILTIN_TOOLS, type ToolRegistry } from '../../tools';
import type { RequestChoices } from '../agentOptions';
import { customAgentInstructions, customAgentModel, customAgentRegistry } from './customAgentApply';
import type { CustomAgent } from './customAgentDiscovery';

// The custom agent an agent works as, and what follows from it for its model, its tools and its instructions
// (createAgentSession.ts asks here, so that it keeps to building agents). The front end chooses it for the
// agent's life: `loopwire exec --agent NAME`, or a subagent's `agent_type` naming one.

/** What of an agent's spec bears on its custom agent. */
export interface AgentChoiceSpec {
  model?: string | undefined;
  /** The user named the model (`--model`): an agent's `model` does not replace it. */
  modelChosen?: boolean | undefined;
  /** The custom agent it works as; absent: Loopwire's own. */
  customAgent?: CustomAgent | undefined;
  /** The custom agents a subagent may be started as (`spawn_agent`'s `agent_type`), read at each spawn. */
  customAgents?: (() => readonly CustomAgent[]) | undefined;
  /** The tools offered and run; a custom agent narrows them. */
  registry?: ToolRegistry | undefined;
}

/** `spec` as its custom agent makes it: the tools narrowed (never widened), the model its own unless the user named one. */
export function asCustomAgent<S extends AgentChoiceSpec>(spec: S, fallbackModel: string): S {
  const agent = spec.customAgent;
  if (!agent) return spec;
  const own = spec.modelChosen === true ? undefined : customAgentModel(agent).model;
  return {
    ...spec,
    registry: customAgentRegistry(spec.registry ?? BUILTIN_TOOLS, agent),
    model: own ?? spec.model ?? fallbackModel,
  };
}

/**
 * `choices` with the agent's instructions after the standing ones: the custom agents a subagent may be started
 * as (where the subagent tools are offered), then the chosen agent's own section. Unchanged where neither is.
 */
export function withAgentInstructions(spec: AgentChoiceSpec, choices: RequestChoices): RequestChoices {
  const registry = spec.registry ?? BUILTIN_TOOLS;
  const offersSubagents = choices.toolSpecs.some(
    (tool) => typeof tool.name === 'string' && registry.get(tool.name)?.optIn === 'agents',
  );
  const parts = [choices.instructions, subagentKindsLine(spec, offersSubagents)];
  if (spec.customAgent) parts.push(customAgentInstructions(spec.customAgent));
  const instructions = parts.filter((part): part is string => part !== undefined).join('\n\n');
  return instructions === choices.instructions ? choices : { ...choices, instructions };
}

/** The custom agent in force: the front end's choice now where it makes one (`null`: none), else the spec's. */
export function chosenAgent(
  spec: AgentChoiceSpec,
  now: { agent?: CustomAgent | null | undefined } | undefined,
): CustomAgent | undefined {
  if (now?.agent === null) return undefined;
  return now?.agent ?? spec.customAgent;
}

/** The model of a request: the front end's pick, else the agent's (unless the user named one), else the spec's. */
export function modelOf(
  spec: AgentChoiceSpec,
  picked: string | undefined,
  agent: CustomAgent | undefined,
  fallback: string,
): string {
  const own = agent && spec.modelChosen !== true ? customAgentModel(agent).model : undefined;
  return picked ?? own ?? spec.model ?? fallback;
}

/** `spec` as the front end's chosen `agent` makes it (the tools narrowed); itself where that is its own agent. */
export function withChosenAgent<S extends AgentChoiceSpec>(spec: S, agent: CustomAgent | undefined): S {
  if (agent === spec.customAgent) return spec;
  return { ...spec, customAgent: agent, registry: customAgentRegistry(spec.registry ?? BUILTIN_TOOLS, agent) };
}

/**
 * A subagent of `spec` as its `agentType` makes it: the custom agent that names (none otherwise, not its
 * parent's), with tools no more than its parent's.
 */
export function subagentChoice<S extends AgentChoiceSpec & { choices?: (() => ChosenAgentNow) | undefined }>(
  spec: S,
  agentType: string | undefined,
): Partial<S> {
  const named = subagentAs(spec, agentType);
  const chosen = spec.choices;
  // The parent's tools as its agent now narrows them (the panel's pick included), then the named agent's.
  const parent = customAgentRegistry(spec.registry ?? BUILTIN_TOOLS, chosenAgent(spec, chosen?.()));
  const registry = customAgentRegistry(parent, named);
  if (!chosen) return { customAgent: named, registry } as Partial<S>;
  // The picker's model still counts for it; the picker's agent is its parent's, not its own.
  let last: { from: ChosenAgentNow; to: ChosenAgentNow } | undefined;
  const own = () => {
    const from = chosen();
    if (last?.from !== from) last = { from, to: { ...from, agent: named ?? null } };
    return last.to;
  };
  return { customAgent: named, registry, choices: own } as Partial<S>;
}

/** What a front end's choices say of the agent (FrontChoices, createAgentSession.ts). */
interface ChosenAgentNow {
  agent?: CustomAgent | null | undefined;
}

/** `spawn_agent`'s own kinds: a custom agent of one of these names is not started by it. */
const BUILTIN_KINDS: ReadonlySet<string> = new Set(['default', 'explorer', 'worker']);

/** The custom agent a spawn's `agent_type` names, if any (exact name first, then in any case). */
export function subagentAs(spec: AgentChoiceSpec, agentType: string | undefined): CustomAgent | undefined {
  if (agentType === undefined || BUILTIN_KINDS.has(agentType)) return undefined;
  const agents = spec.customAgents?.() ?? [];
  return (
    agents.find((agent) => agent.name === agentType) ??
    agents.find((agent) => agent.name.toLowerCase() === agentType.toLowerCase())
  );
}

/**
 * A line for the standing instructions naming the custom agents a subagent may be started as, where the
 * subagent tools are offered and there are some; undefined: none.
 */
export function subagentKindsLine(spec: AgentChoiceSpec, offersSubagents: boolean): string | undefined {
  const agents = (spec.customAgents?.() ?? []).filter((agent) => !BUILTIN_KINDS.has(agent.name));
  if (!offersSubagents || agents.length === 0) return undefined;
  const each = agents.map((agent) => `- \`${agent.name}\`${agent.description ? `: ${agent.description}` : ''}`);
  return [
    '# Custom agents for subagents',
    "The project or the user defined these agents: a subagent started with `agent_type` set to one's name follows its instructions, with its tools (never more than yours):",
    ...each,
  ].join('\n');
}
