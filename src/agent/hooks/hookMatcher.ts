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
  let expression: RegExp;
  try {
    expression = new RegExp(pattern);
  } catch {
    return false;
  }
  return [name, ...claudeNames(name)].some((candidate) => expression.test(candidate));
}
