import { ToolRegistry, toolsNamed } from '../../tools';
import type { HandoffOffer } from '../../protocol';
import type { CustomAgent } from './customAgentDiscovery';
import type { AgentHandoff } from './customAgentHandoffs';

// What a chosen custom agent changes in a request, and nothing more: its body joins the standing instructions,
// its `tools` narrow what is offered (and what runs), its `model` names the model on the user's own endpoint
// when the user named none. It never adds a tool, an approval mode or a sandbox setting: those stay the
// user's, and a tool the agent names that the user's set lacks is simply not there.

/** The most of an agent's body sent (as for the project instructions): the cut is said. */
export const AGENT_INSTRUCTIONS_MAX_CHARS = 32 * 1024;

/** The standing instructions' section for `agent`: its body, headed with where it came from. */
export function customAgentInstructions(agent: CustomAgent): string {
  const body = agent.instructions;
  const cut = body.length > AGENT_INSTRUCTIONS_MAX_CHARS;
  const text = cut ? body.slice(0, AGENT_INSTRUCTIONS_MAX_CHARS) : body;
  const about = agent.description ? ` (${agent.description})` : '';
  return [
    `# Custom agent: ${agent.name}`,
    `The user chose the custom agent \`${agent.name}\`${about}, defined in \`${agent.label}\`. Act as it says below, within everything above: the user's requests, the approval mode and the sandbox come first.`,
    '',
    '<AGENT_INSTRUCTIONS>',
    text === '' ? '(The agent gives no instructions of its own.)' : text,
    cut ? `[Cut: an agent's instructions are capped at ${AGENT_INSTRUCTIONS_MAX_CHARS / 1024} KiB.]` : undefined,
    '</AGENT_INSTRUCTIONS>',
  ]
    .filter((line): line is string => line !== undefined)
    .join('\n');
}

/** `registry` narrowed to what `agent`'s `tools` stand for (all of it where the agent names none). */
export function customAgentRegistry(registry: ToolRegistry, agent: CustomAgent | undefined): ToolRegistry {
  if (agent?.tools === undefined) return registry;
  const { tools } = toolsNamed(agent.tools, registry);
  return new ToolRegistry(registry.tools.filter((tool) => tools.has(tool.name)));
}

/** The names in `agent`'s `tools` that stand for none of `registry`'s tools: left out, and said once. */
export function unknownAgentTools(registry: ToolRegistry, agent: CustomAgent): string[] {
  return agent.tools === undefined ? [] : toolsNamed(agent.tools, registry).unknown;
}

/** Claude Code's aliases of its own models: names of no model on another endpoint. */
const CLAUDE_ALIASES: ReadonlySet<string> = new Set(['sonnet', 'opus', 'haiku', 'opusplan']);

/**
 * The model `agent`'s `model` names, as an id for the user's endpoint, or why it names none. VS Code's files
 * name models as its picker shows them (`GPT-4o`, `Claude Sonnet 4 (copilot)`): the vendor in brackets goes, and
 * a name with capitals or spaces is lowercased, spaces as hyphens (as prompt files' are). Claude Code's
 * `inherit` is the chat's model; its aliases (`sonnet`, `opus`, `haiku`) name its own models, not one on the
 * user's endpoint, and are set aside.
 */
export function customAgentModel(agent: CustomAgent): { model?: string; ignored?: string } {
  return modelNamed(agent.model);
}

/** The model id a custom agent file's `written` model names (an agent's `model`, a handoff's), as above. */
export function modelNamed(written: string | undefined): { model?: string; ignored?: string } {
  if (written === undefined || written.toLowerCase() === 'inherit') return {};
  if (CLAUDE_ALIASES.has(written.toLowerCase()))
    return { ignored: `'${written}' is Claude Code's alias of one of its models, not a model of this endpoint` };
  const bare = written.replace(/\s*\([^)]*\)\s*$/, '').trim();
  if (bare === '') return {};
  return { model: /[A-Z\s]/.test(bare) ? bare.toLowerCase().replace(/\s+/g, '-') : bare };
}

/** What a front end says once of `agent` (its unknown tools, a model set aside), as lines without ending. */
export function customAgentNotes(registry: ToolRegistry, agent: CustomAgent): string[] {
  const notes = unknownAgentTools(registry, agent).map(
    (name) => `custom agent ${agent.name}: the tool '${name}' is no tool of Loopwire's: left out`,
  );
  const { ignored } = customAgentModel(agent);
  if (ignored) notes.push(`custom agent ${agent.name}: its model ${ignored}: the chat's model is used`);
  return notes;
}

/** A handoff as the front ends offer it: its model made an id of the endpoint (one set aside: none). */
export function handoffOffer(handoff: AgentHandoff): HandoffOffer {
  const model = handoff.model === undefined ? undefined : modelNamed(handoff.model).model;
  return {
    label: handoff.label,
    agent: handoff.agent,
    ...(handoff.prompt === undefined ? {} : { prompt: handoff.prompt }),
    ...(handoff.mode === undefined ? {} : { mode: handoff.mode }),
    ...(handoff.send ? { send: true } : {}),
    ...(model === undefined ? {} : { model }),
  };
}
