import * as os from 'node:os';
import {
  type AgentSpec,
  type CustomAgent,
  customAgentModel,
  customAgentNamed,
  customAgentNotes,
  findCustomAgents,
} from '../../agent';
import type { ToolRegistry } from '../../tools';
import { type CliIo, ExitCode } from '../cliIo';
import { terminalText } from './terminalText';

// `loopwire exec --agent NAME`: the run as a custom agent (src/agent/customAgents) — its body added to the
// instructions, its `tools` narrowing what is offered, its `model` the run's unless --model (or a prompt file's
// `model`) named one. The workspace's and the user's agents are read once; each file that cannot be used is said
// on stderr, and the same list is what a subagent's `agent_type` may name. An unknown NAME is bad usage (exit 2),
// naming the agents there are; nothing is started.

export const agentFlagsUsage = `  --agent NAME           run as the custom agent NAME (.github/agents/*.agent.md, .claude/agents/*.md,
                         ~/.claude/agents/*.md): its instructions, tools and model (--model wins)
`;

export const agentFlagOptions = { agent: { type: 'string' } } as const;

/** The run's custom agent (if --agent names one) and every agent found, for subagents. */
export interface ExecAgents {
  agent?: CustomAgent;
  agents: CustomAgent[];
  /** The user named the run's model: a subagent's agent does not replace it either. */
  modelChosen: boolean;
}

/** What of the run bears on its agent: --agent, and the model with whether the user chose it. */
export interface AgentRequest {
  /** --agent's NAME. */
  name: string | undefined;
  model: string;
  /** --model named it, or a prompt file did: an agent's `model` does not replace it. */
  modelChosen: boolean;
}

/** The agents of `root` and the user's; with --agent, the one it names and the run's model as it makes it. */
export async function execAgents(
  request: AgentRequest,
  root: string,
  io: CliIo,
): Promise<{ agents: ExecAgents; model: string } | ExitCode> {
  const found = await findCustomAgents([root], os.homedir());
  for (const { file, problem, kept } of found.problems)
    io.stderr(terminalText(`(custom agent ${kept ? '' : 'not used: '}${file}: ${problem})\n`));
  const { name } = request;
  const { modelChosen } = request;
  if (name === undefined) return { agents: { agents: found.agents, modelChosen }, model: request.model };
  const agent = customAgentNamed(found.agents, name);
  if (agent === undefined) {
    const here =
      found.agents.length === 0
        ? 'there are none here (.github/agents/*.agent.md, .claude/agents/*.md, ~/.claude/agents/*.md)'
        : `the agents here are ${found.agents.map((each) => `${each.name} (${each.label})`).join(', ')}`;
    io.stderr(`loopwire exec: --agent: no custom agent '${name}': ${here}\n`);
    return ExitCode.usage;
  }
  const own = customAgentModel(agent).model;
  const model = !request.modelChosen && own !== undefined ? own : request.model;
  return { agents: { agent, agents: found.agents, modelChosen }, model };
}

/** What an agent of the run is built with for its custom agent (none: nothing). */
export function agentSpecOf(
  agents: ExecAgents | undefined,
): Pick<AgentSpec, 'customAgent' | 'customAgents' | 'modelChosen'> {
  if (agents === undefined) return {};
  const list = agents.agents;
  return { customAgent: agents.agent, customAgents: () => list, modelChosen: agents.modelChosen };
}

/** Said once on stderr: the agent the run is, and what of its file is left out (`registry`: the tools there are). */
export function sayAgent(agent: CustomAgent | undefined, registry: ToolRegistry, say: (line: string) => void): void {
  if (agent === undefined) return;
  say(`(custom agent: ${agent.name} from ${agent.label})\n`);
  for (const note of customAgentNotes(registry, agent)) say(`(${note})\n`);
}
