import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { within } from '../skills/skillDiscovery';
import { type CustomAgentHeader, DEFAULT_AGENT_NAME, parseCustomAgentFile } from './customAgentFile';
import type { AgentHandoff, HandoffMode } from './customAgentHandoffs';

// Where custom agents are found, in this order: each workspace folder's `.github/agents/*.agent.md` (VS Code's),
// then its `.claude/agents/*.md` (Claude Code's, which VS Code reads too), then the user's `~/.claude/agents/*.md`
// (Claude Code's user-level folder; VS Code keeps its user agents in its profile, out of reach of a CLI).
// Each folder's files in name order, not its subfolders. The first agent of a name wins (a project's over the
// user's, as in Claude Code); a later one of that name is reported. A workspace file a link leads out of the
// workspace folder is not read (it is not the team's). Nothing here throws: what cannot be used is a problem
// naming its file.

/** A workspace folder's agent folders and the ending each file has there, in the order they are read. */
export const WORKSPACE_AGENT_DIRS = [
  { dir: '.github/agents', ending: '.agent.md' },
  { dir: '.claude/agents', ending: '.md' },
] as const;
/** The user's agent folders, under the home folder. */
export const USER_AGENT_DIRS = [{ dir: '.claude/agents', ending: '.md' }] as const;
/** A file larger than this is not read. */
export const AGENT_FILE_MAX_BYTES = 256 * 1024;

export interface CustomAgent extends Omit<CustomAgentHeader, 'notes'> {
  /** The file as the tools name it: workspace-relative for the workspace's, absolute for the user's. */
  label: string;
  scope: 'workspace' | 'user';
}

export interface CustomAgentProblem {
  file: string;
  problem: string;
  /** The agent is used all the same: this part of its file (a handoff) is left out. */
  kept?: true;
}

export interface FoundCustomAgents {
  agents: CustomAgent[];
  problems: CustomAgentProblem[];
}

/** One folder to read, and how its files are named and bounded. */
interface Place {
  dir: string;
  ending: string;
  scope: CustomAgent['scope'];
  /** The real folder a workspace file must stay inside. */
  inside?: string;
  /** What a file's label starts with. */
  prefix: string;
}

/**
 * The custom agents of the workspace `folders` (in several, labels start with the folder's name) and of the
 * user's `home` (undefined: none of the user's).
 */
export async function findCustomAgents(
  folders: readonly string[],
  home: string | undefined,
): Promise<FoundCustomAgents> {
  const found: FoundCustomAgents = { agents: [], problems: [] };
  const places: Place[] = [];
  for (const folder of folders) {
    const root = await fs.realpath(folder).catch(() => path.resolve(folder));
    const prefix = folders.length > 1 ? `${path.basename(path.resolve(folder))}/` : '';
    for (const { dir, ending } of WORKSPACE_AGENT_DIRS)
      places.push({ dir: path.join(root, dir), ending, scope: 'workspace', inside: root, prefix: `${prefix}${dir}/` });
  }
  if (home !== undefined)
    for (const { dir, ending } of USER_AGENT_DIRS) {
      const absolute = path.join(home, dir);
      places.push({ dir: absolute, ending, scope: 'user', prefix: `${absolute}${path.sep}` });
    }
  const seen = new Set<string>();
  for (const place of places) {
    const entries = await fs.readdir(place.dir).catch(() => [] as string[]);
    for (const name of entries.filter((entry) => entry.endsWith(place.ending)).sort())
      await take(place, name, seen, found);
  }
  resolveHandoffs(found);
  return found;
}

async function take(place: Place, name: string, seen: Set<string>, found: FoundCustomAgents): Promise<void> {
  const label = `${place.prefix}${name}`;
  const problem = (text: string) => void found.problems.push({ file: label, problem: text });
  const real = await fs.realpath(path.join(place.dir, name)).catch(() => undefined);
  if (real === undefined) return problem('it cannot be read: a broken link');
  if (place.inside !== undefined && !within(place.inside, real))
    return problem('it leads out of the workspace through a symbolic link: not used');
  // `.claude/agents` a link to `.github/agents`: one file, one agent.
  if (seen.has(real)) return;
  seen.add(real);
  let content: string;
  try {
    const stats = await fs.stat(real);
    if (!stats.isFile()) return;
    if (stats.size > AGENT_FILE_MAX_BYTES)
      return problem(`it is larger than ${AGENT_FILE_MAX_BYTES / 1024} KiB: not read`);
    content = await fs.readFile(real, 'utf8');
  } catch (error) {
    return problem(`it cannot be read: ${(error as Error).message}`);
  }
  const header = parseCustomAgentFile(content, name, place.ending);
  if ('problem' in header) return problem(header.problem);
  const taken = found.agents.find((agent) => agent.name.toLowerCase() === header.name.toLowerCase());
  if (taken) return problem(`the name '${header.name}' is already ${taken.label}'s: not used`);
  const { notes, ...agent } = header;
  for (const note of notes ?? []) found.problems.push({ file: label, problem: note, kept: true });
  found.agents.push({ ...agent, label, scope: place.scope });
}

/** VS Code's built-in agents a handoff may name, as Loopwire's own agent (`ask` and `plan`: in that mode). */
const DEFAULT_TARGETS: ReadonlyMap<string, HandoffMode | undefined> = new Map([
  ['agent', undefined],
  ['edit', undefined],
  [DEFAULT_AGENT_NAME.toLowerCase(), undefined],
  ['ask', 'read-only'],
  ['plan', 'plan'],
]);

/**
 * Each handoff's `agent` as the name of the agent it switches to (a custom agent's own name, or
 * DEFAULT_AGENT_NAME for VS Code's `agent`, `edit`, `ask` and `plan` — the last two with the mode its prompt
 * runs in, as a prompt file's `agent` has: promptAgent.ts); one that names no agent found is said and left out.
 */
function resolveHandoffs(found: FoundCustomAgents): void {
  const names = found.agents.map((agent) => agent.name);
  found.agents = found.agents.map((agent) => {
    if (agent.handoffs === undefined) return agent;
    const handoffs: AgentHandoff[] = [];
    for (const handoff of agent.handoffs) {
      const target = handoffTarget(handoff.agent, names);
      if (target !== undefined) {
        handoffs.push({ ...handoff, ...target });
        continue;
      }
      const here = names.length === 0 ? 'there are no custom agents here' : `the agents here are ${names.join(', ')}`;
      const why = `its handoff '${handoff.label}': the agent '${handoff.agent}' is no agent here (${DEFAULT_AGENT_NAME}, agent, ask, plan, or a custom agent: ${here}): left out`;
      found.problems.push({ file: agent.label, problem: why, kept: true });
    }
    const { handoffs: _all, ...rest } = agent;
    return handoffs.length > 0 ? { ...rest, handoffs } : rest;
  });
}

/** The agent a handoff's `agent` names among `names` (a custom agent's own name first), and its mode; undefined: none. */
function handoffTarget(agent: string, names: readonly string[]): { agent: string; mode?: HandoffMode } | undefined {
  const exact =
    names.find((name) => name === agent) ?? names.find((name) => name.toLowerCase() === agent.toLowerCase());
  if (exact !== undefined) return { agent: exact };
  const key = agent.toLowerCase();
  if (!DEFAULT_TARGETS.has(key)) return undefined;
  const mode = DEFAULT_TARGETS.get(key);
  return { agent: DEFAULT_AGENT_NAME, ...(mode === undefined ? {} : { mode }) };
}

/** The agent `name` names (its exact name, else the only one of that name in any case); undefined: none. */
export function customAgentNamed(agents: readonly CustomAgent[], name: string): CustomAgent | undefined {
  return (
    agents.find((agent) => agent.name === name) ??
    agents.find((agent) => agent.name.toLowerCase() === name.toLowerCase())
  );
}
