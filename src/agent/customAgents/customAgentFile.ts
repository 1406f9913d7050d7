import { z } from 'zod';
import { namesOf, oneLine, readFrontMatter } from '../prompts/frontMatter';
import { type AgentHandoff, HandoffsField, readHandoffs } from './customAgentHandoffs';

// One custom agent's file: VS Code's `NAME.agent.md` (code.visualstudio.com/docs/copilot/customization/custom-agents)
// or Claude Code's subagent `NAME.md` (docs.claude.com/en/docs/claude-code/sub-agents), which VS Code reads too.
// An optional YAML front matter between two `---` lines (the shared reader, frontMatter.ts), then the body: the
// agent's instructions. Read here: `name` (default: the file's name less its ending), `description`, `tools` (a
// list, or Claude Code's comma-separated text) and `model` (text, or VS Code's list of models in order of
// preference: the first) and `handoffs` (customAgentHandoffs.ts: a bad entry is said and left out, the agent kept).
// Other fields (`target`, `argument-hint`, `mcp-servers`, Claude Code's
// `color`, `permissionMode`…) are allowed and not read. What is wrong is said in a sentence naming the field,
// never thrown: a team's broken file must not stop a task.

/** The name of the agent a chat has when no custom agent is chosen: no file may take it. */
export const DEFAULT_AGENT_NAME = 'Loopwire';

/** The most characters of a name (a picker's line). */
const NAME_MAX = 64;

const text = (field: string) => z.string({ error: `the field \`${field}\` is not text` }).optional();
const names = (field: string) =>
  z.union([z.array(z.string()), z.string()], { error: `the field \`${field}\` is not a list of names` }).optional();

/** The front matter's fields Loopwire reads; the others stay unchecked (loose). */
const FrontMatter = z.looseObject({
  name: text('name'),
  description: text('description'),
  tools: names('tools'),
  model: names('model'),
  handoffs: HandoffsField,
});

/** What a valid custom agent file says. */
export interface CustomAgentHeader {
  name: string;
  /** On one line; empty where the file gives none. */
  description: string;
  /** The tool names as written (VS Code's, Claude Code's or ours); undefined: the tools are not narrowed. */
  tools?: string[];
  /** The model as written (the first of a list); undefined: the chat's model. */
  model?: string;
  /** The next steps offered after one of its answers (its targets resolved by customAgentDiscovery.ts). */
  handoffs?: AgentHandoff[];
  /** What of the file was left out while the agent is used (a bad handoff), a sentence each. */
  notes?: string[];
  /** The body after the front matter: added to the standing instructions. May be empty (a tools-only agent). */
  instructions: string;
}

/** The custom agent of the file named `fileName` (ending `ending`) holding `content`, or what is wrong with it. */
export function parseCustomAgentFile(
  content: string,
  fileName: string,
  ending: string,
): CustomAgentHeader | { problem: string } {
  const read = readFrontMatter(content, FrontMatter);
  if ('problem' in read) return read;
  const { fields, body: instructions } = read;
  const name = oneLine(fields.name ?? fileName.slice(0, fileName.length - ending.length));
  const nameProblem = checkName(name);
  if (nameProblem) return { problem: nameProblem };
  const tools = namesOf(fields.tools);
  const model = namesOf(fields.model)?.[0];
  const { handoffs, problems: notes } = readHandoffs(fields.handoffs);
  return {
    name,
    description: oneLine(fields.description ?? ''),
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
    ...(handoffs.length > 0 ? { handoffs } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    instructions,
  };
}

function checkName(name: string): string | undefined {
  if (name === '') return 'the field `name` is empty';
  if ([...name].length > NAME_MAX) return `the name '${name}' is longer than ${NAME_MAX} characters`;
  if (name.toLowerCase() === DEFAULT_AGENT_NAME.toLowerCase())
    return `the name '${name}' is the default agent's: give the agent another`;
  if (/[\p{Cc}]/u.test(name)) return `the name '${name}' holds control characters`;
  return undefined;
}
