import type { ToolContext, ToolResult } from './tool';
import { failure } from './tool';
import { fromThrown, invalidArguments } from './toolErrors';
import type { ToolRegistry } from './toolRegistry';
import { BUILTIN_TOOLS } from './toolSet';

/** A tool call as the model made it: a function call (JSON arguments) or a freeform call (one string). */
export type ToolCall =
  { kind: 'function'; name: string; arguments: string } | { kind: 'custom'; name: string; input: string };

/**
 * Runs one call of one of `tools` (default: the built-in ones). Never throws: unknown tools, unparsable or
 * invalid arguments and every refusal come back as `ok: false` with a message the model can act on. A tool
 * that takes freeform input (apply_patch) runs whichever way it is called (freeform input, or a function
 * call with `{input}`), whichever way it was offered.
 */
export async function runToolCall(
  call: ToolCall,
  context: ToolContext,
  tools: ToolRegistry = BUILTIN_TOOLS,
): Promise<ToolResult> {
  const tool = tools.get(call.name);
  if (!tool) return failure(`There is no tool '${call.name}'. The tools are: ${tools.names.join(', ')}.`);
  const name = tool.name;
  if (tool.requires === 'writes' && context.workspace.capabilities.writes === false)
    return failure(
      `${name} is not available: this workspace is not trusted, so files cannot be changed. Reading and searching still work.`,
    );
  let raw: unknown;
  if (call.kind === 'custom') {
    if (!tool.freeform) return failure(`${name} takes JSON arguments; call it as a function.`);
    raw = { input: call.input };
  } else {
    try {
      raw = call.arguments.trim() === '' ? {} : (JSON.parse(call.arguments) as unknown);
    } catch (error) {
      return failure(
        `The arguments of ${name} are not valid JSON (${(error as Error).message}); send one JSON object.`,
      );
    }
  }
  const args = tool.args.safeParse(raw);
  if (!args.success) return invalidArguments(name, args.error);
  try {
    return await tool.run(args.data, context);
  } catch (error) {
    return fromThrown(name, error);
  }
}
