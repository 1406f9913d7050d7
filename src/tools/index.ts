// The agent's tools: one zod schema and one behaviour each, over the Workspace port only.
export { ReadLedger } from './readLedger';
export { type ToolCall, runToolCall } from './runToolCall';
export type { EditedFile, ToolContext, ToolDefinition, ToolResult } from './tool';
export {
  type EditStyle,
  type ToolName,
  type ToolOffer,
  TOOLS,
  TOOL_NAMES,
  editStyleFor,
  isToolName,
  parametersOf,
  toolsFor,
} from './toolSet';
export { APPLY_PATCH_GRAMMAR } from './applyPatch';
export { formatDiagnostic } from './commitPlan';
