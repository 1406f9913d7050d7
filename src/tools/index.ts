// The agent's tools: one zod schema and one behaviour each, over the Workspace port only. Each tool's file
// also says what the rest of the program asks of it; consumers ask the tool set, never name a tool.
export { ReadLedger } from './readLedger';
export {
  type AgentControl,
  type Refusal,
  type SpawnRequest,
  type TaskSignal,
  SubagentStatus,
  isFinalStatus,
} from './agentControl';
export { translating } from './errorDisplay';
export { outputLabel } from './runReport';
export { type ToolCall, runToolCall } from './runToolCall';
export type {
  ApprovalView,
  EditStyle,
  EditedFile,
  FreeformInput,
  LiveDiffKind,
  OutputShape,
  ToolContext,
  ToolDefinition,
  ToolEffect,
  ToolNeed,
  ToolOptIn,
  ToolResult,
} from './tool';
export { jsonArguments, mainArgument, stringArgument, summarizeArgument } from './callSummary';
export { argumentPaths, schemaPathArguments, schemaSummary } from './callPaths';
export {
  EDIT_STYLES,
  type ToolAvailability,
  type ToolOffer,
  ToolRegistry,
  editStyleFor,
  parametersOf,
  planToolFor,
} from './toolRegistry';
export {
  BUILTIN_TOOLS,
  SHELL_TOOL,
  SUBAGENT_TOOLS,
  type ToolName,
  TOOLS,
  TOOL_NAMES,
  isFreeformInput,
  isToolName,
  liveDiffKind,
  outputShape,
  summarizeCall,
  takesFreeform,
  toolEffect,
  toolsAvailable,
  toolsFor,
} from './toolSet';
export { APPLY_PATCH_GRAMMAR } from './applyPatch';
export { toolsNamed } from './toolNameAliases';
export { formatDiagnostic } from './commitPlan';
export { type CommandPlace, type CommandVerdict, type JudgedCommand, judgeCommand } from './commandSafety';
export { type JudgedCall, judgeCommandCall } from './execCommand';
export { BackgroundCommands, type SessionEvent } from './backgroundCommands';
export { TOOL_OUTPUT_BUDGET_TOKENS } from './runReport';
export { backgroundCommandOf } from './backgroundReport';
export { gitConfigReason } from './gitDirCheck';
export { reviewToolNames } from './reviewTools';
