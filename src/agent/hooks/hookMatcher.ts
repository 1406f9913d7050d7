import * as vm from 'node:vm';
import { TOOLS } from '../../tools';

// Which tools a hook's matcher names. Claude Code's matcher is a tool name, a list (`Edit|Write`), a regular
// expression, or `*` / empty for every tool. Its tool names are mapped to ours (`Bash` is `exec_command`…);
// ours match as they are, and a regular expression is tried on our name and on Claude Code's for the tool.

/** Claude Code's tools, as the tools of ours that do their job. */
const CLAUDE_TOOLS: Record<string, readonly string[]> = {
  Bash: [TOOLS.exec_command.name, TOOLS.run_task.name],
  Edit: [TOOLS.apply_patch.name, TOOLS.edit_file.name],
  MultiEdit: [TOOLS.apply_patch.name, TOOLS.edit_file.name],
  Write: [TOOLS.write_file.name, TOOLS.apply_patch.name, TOOLS.edit_file.name],
  Read: [TOOLS.read_file.name, TOOLS.view_image.name],
  Grep: [TOOLS.search_text.name],
  Glob: [TOOLS.find_files.name],
  Task: [TOOLS.spawn_agent.name],
  TodoWrite: [TOOLS.update_plan.name],
};

/** Claude Code's names for our tool `name` (none for a tool it has no counterpart of). */
function claudeNames(name: string): string[] {
  return Object.entries(CLAUDE_TOOLS).flatMap(([claude, ours]) => (ours.includes(name) ? [claude] : []));
}

/** Whether `matcher` (undefined, '' or '*': every tool) names the tool `name`. */
export function matchesTool(matcher: string | undefined, name: string): boolean {
  const pattern = matcher?.trim() ?? '';
  if (pattern === '' || pattern === '*') return true;
  if (/^[\w\s,|-]+$/.test(pattern)) {
    const names = pattern.split(/[|,]/).map((part) => part.trim());
    return names.some((part) => part === name || (CLAUDE_TOOLS[part] ?? []).includes(name));
  }
  return [name, ...claudeNames(name)].some((candidate) => regexMatches(pattern, candidate));
}

/**
 * How long one expression may take on one name. A matcher is a file's text, and JavaScript's expressions
 * backtrack: `(.*.*.*.*)*X` takes minutes on `exec_command`, every call blocked (in VS Code, the whole
 * extension host). So it runs in a context that V8 interrupts past this, and one that does matches nothing.
 */
const REGEX_BUDGET_MS = 50;
/** `pattern\0name` → whether it matched: each pair is tried once. */
const tried = new Map<string, boolean>();
let context: vm.Context | undefined;

/** Whether the regular expression `pattern` matches `candidate`; false for a bad or too slow one. */
function regexMatches(pattern: string, candidate: string): boolean {
  const key = `${pattern}\0${candidate}`;
  const known = tried.get(key);
  if (known !== undefined) return known;
  context ??= vm.createContext({});
  let matched = false;
  try {
    context['pattern'] = pattern;
    context['candidate'] = candidate;
    matched = vm.runInContext('new RegExp(pattern).test(candidate)', context, { timeout: REGEX_BUDGET_MS }) === true;
  } catch {
    // Not an expression, or past its budget: it names no tool.
  }
  if (tried.size > 10_000) tried.clear();
  tried.set(key, matched);
  return matched;
}
