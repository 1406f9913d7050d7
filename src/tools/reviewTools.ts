import type { ToolRegistry } from './toolRegistry';
import { SHELL_TOOL } from './toolSet';

// The tools a review is offered: those that only read (their effect is `read`), less those that start or steer
// another agent (a subagent would run on its own tools and could write), plus the shell tool and its stdin so
// that the model can run git log, git show or git diff with a path. A review runs in the read-only approval
// mode, where a command runs in the read-only sandbox (or, without one, only if it only reads).

/** Tools that start or steer agents: reads by effect, but not for a review. */
const AGENT_TOOLS: ReadonlySet<string> = new Set(['spawn_agent', 'send_input', 'wait', 'close_agent']);
/** The shell's companion: input to a command the shell tool left running. */
const SHELL_STDIN = 'write_stdin';

/** The names of the tools of `registry` a review is offered. */
export function reviewToolNames(registry: ToolRegistry): string[] {
  return registry.tools
    .filter(
      (tool) =>
        tool.name === SHELL_TOOL ||
        tool.name === SHELL_STDIN ||
        (tool.effect === 'read' && !AGENT_TOOLS.has(tool.name) && !tool.name.startsWith('mcp__')),
    )
    .map((tool) => tool.name);
}
