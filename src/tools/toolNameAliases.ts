import type { ToolRegistry } from './toolRegistry';

// The tool names other agents' files give (a prompt file's or a custom agent's `tools`: VS Code's tools and tool
// sets, `search/codebase` as well as `codebase`; Claude Code's in its subagents' `tools: Read, Grep, Bash`), as the
// tools of ours that do the same. Our own names stand for
// themselves; `SERVER/*` is every tool of that MCP server (`mcp__SERVER__…`). A name with no counterpart here
// (`fetch`, `githubRepo`) is unknown: VS Code ignores a tool it does not have, and so does Loopwire, saying so.

const SEARCH = ['search_text', 'find_files'];
const EDIT = ['apply_patch', 'edit_file', 'write_file'];
const COMMANDS = ['exec_command', 'write_stdin'];
const TASKS = ['list_tasks', 'run_task'];
const AGENTS = ['spawn_agent', 'send_input', 'wait', 'close_agent'];

/** VS Code's names (lowercase) and tool sets, and ours for each. */
const VSCODE_TOOLS: Record<string, readonly string[]> = {
  codebase: SEARCH,
  search: SEARCH,
  textsearch: ['search_text'],
  filesearch: ['find_files'],
  listdirectory: ['find_files'],
  usages: ['search_text'],
  read: ['read_file'],
  readfile: ['read_file'],
  edit: EDIT,
  editfiles: EDIT,
  createfile: EDIT,
  runcommands: COMMANDS,
  terminal: COMMANDS,
  runinterminal: COMMANDS,
  getterminaloutput: COMMANDS,
  execute: COMMANDS,
  runtasks: TASKS,
  runtask: TASKS,
  problems: ['get_diagnostics'],
  todos: ['update_plan'],
  todo: ['update_plan'],
  runsubagent: AGENTS,
  agent: AGENTS,
  // Claude Code's (`Read` and `Edit` are above), as its hooks' matchers map them (src/agent/hooks/hookMatcher.ts).
  bash: COMMANDS,
  grep: ['search_text'],
  glob: ['find_files'],
  ls: ['find_files'],
  write: EDIT,
  multiedit: EDIT,
  task: AGENTS,
  todowrite: ['update_plan'],
};

/** The tools of `registry` that `names` stand for, and the names that stand for none of them. */
export function toolsNamed(
  names: readonly string[],
  registry: ToolRegistry,
): { tools: Set<string>; unknown: string[] } {
  const tools = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const ours = oursFor(name, registry.names);
    if (ours.length === 0 && !unknown.includes(name)) unknown.push(name);
    for (const tool of ours) tools.add(tool);
  }
  return { tools, unknown };
}

/** The tools among `have` that one name stands for. */
function oursFor(name: string, have: readonly string[]): string[] {
  if (have.includes(name)) return [name];
  const server = /^([^/]+)\/\*$/.exec(name);
  if (server) return have.filter((tool) => tool.startsWith(`mcp__${server[1] ?? ''}__`));
  const [first, second, ...more] = name.split('/');
  if (second !== undefined && more.length === 0 && have.includes(`mcp__${first ?? ''}__${second}`))
    return [`mcp__${first ?? ''}__${second}`];
  // `search/codebase`: the tool in its set; `search`: the set itself.
  const last = name.split('/').pop() ?? name;
  const mapped = VSCODE_TOOLS[last.toLowerCase()] ?? VSCODE_TOOLS[name.toLowerCase()] ?? [];
  return mapped.filter((tool) => have.includes(tool));
}
