import { type ToolName, TOOLS, TOOL_NAMES, isToolName } from './toolSet';
import type { ToolContext, ToolDefinition, ToolResult } from './tool';
import { failure } from './tool';
import { fromThrown, invalidArguments } from './toolErrors';

const WRITE_TOOLS: ReadonlySet<string> = new Set(['edit_file', 'apply_patch', 'write_file']);

/** A tool call as the model made it: a function call (JSON arguments) or a freeform call (one string). */
export type ToolCall =
  { kind: 'function'; name: string; arguments: string } | { kind: 'custom'; name: string; input: string };

/**
 * Runs one call. Never throws: unknown tools, unparsable or invalid arguments and every refusal come back as
 * `ok: false` with a message the model can act on. apply_patch runs whichever way it is called (freeform
 * input, or a function call with `{input}`), whichever way it was offered.
 */
export async function runToolCall(call: ToolCall, context: ToolContext): Promise<ToolResult> {
  if (!isToolName(call.name))
    return failure(`There is no tool '${call.name}'. The tools are: ${TOOL_NAMES.join(', ')}.`);
  const name: ToolName = call.name;
  const tool: ToolDefinition = TOOLS[name];
  if (WRITE_TOOLS.has(name) && context.workspace.capabilities.writes === false)
    return failure(
      `${name} is not available: this workspace is not trusted, so files cannot be changed. Reading and searching still work.`,
    );
  let raw: unknown;
  if (call.kind === 'custom') {
    if (name !== 'apply_patch') return failure(`${name} takes JSON arguments; call it as a function.`);
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
