import * as z from 'zod';
import { openUnion } from './openUnion';

// Tool definitions as a request offers them (docs/protocol.md §2.4, §10): flat, not nested
// under `function` as in Chat Completions. Tools of other types (web search, MCP, Codex's `tool_search`...)
// are kept exactly as given.

/** A tool that takes JSON arguments described by a JSON Schema. */
export const FunctionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** How a freeform tool's input is constrained: free text, or a Lark / regex grammar. */
export const CustomToolFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('grammar'), syntax: z.enum(['lark', 'regex']), definition: z.string() }),
]);

/** A freeform tool: the model sends it one string (Codex offers `apply_patch` this way). */
export const CustomTool = z.looseObject({
  type: z.literal('custom'),
  name: z.string().min(1),
  description: z.string().optional(),
  format: CustomToolFormat.optional(),
});

export const Tool = z.discriminatedUnion('type', [FunctionTool, CustomTool]);
/** A tool definition: function, custom, or any other type kept as given. */
export const AnyTool = openUnion(Tool);

/** `"auto" | "none" | "required"`, or an object naming one tool (`{type: "function", name}`) or a tool type. */
export const ToolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.string(), name: z.string().optional() }),
]);

export type FunctionTool = z.infer<typeof FunctionTool>;
export type CustomToolFormat = z.infer<typeof CustomToolFormat>;
export type CustomTool = z.infer<typeof CustomTool>;
export type Tool = z.infer<typeof Tool>;
export type AnyTool = z.infer<typeof AnyTool>;
export type ToolChoice = z.infer<typeof ToolChoice>;
