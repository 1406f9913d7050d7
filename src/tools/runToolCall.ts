import { t } from '@vscode/l10n';
import type { ToolContext, ToolResult } from './tool';
import { fromThrown, invalidArguments, refusal } from './toolErrors';
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
  if (!tool)
    return refusal(`There is no tool '${call.name}'. The tools are: ${tools.names.join(', ')}.`, () =>
      t('The model called a tool that does not exist: {0}.', call.name),
    );
  const name = tool.name;
  if (tool.requires === 'writes' && context.workspace.capabilities.writes === false)
    return refusal(
      `${name} is not available: this workspace is not trusted, so files cannot be changed. Reading and searching still work.`,
      () => t('{0} is not available: this workspace is not trusted, so no file is changed.', name),
    );
  let raw: unknown;
  if (call.kind === 'custom') {
    if (!tool.freeform)
      return refusal(`${name} takes JSON arguments; call it as a function.`, () =>
        t('The model called {0} with freeform text, where it takes JSON arguments.', name),
      );
    raw = { input: call.input };
  } else {
    try {
      raw = call.arguments.trim() === '' ? {} : (JSON.parse(call.arguments) as unknown);
    } catch (error) {
      return refusal(
        `The arguments of ${name} are not valid JSON (${(error as Error).message}); send one JSON object.`,
        () => t('The model sent arguments to {0} that are not valid JSON.', name),
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
