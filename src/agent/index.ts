// The agent core: the loop, its session transport (one socket, rotated), the transcript and the events.
// Plain Node; the editor is reached only through the Workspace port the tools are given.
export { Agent, type AgentOptions, type DoneEvent } from './agentLoop';
export {
  type ApprovalPolicy,
  type ApprovalRequest,
  type ToolEffect,
  approveAll,
  askEach,
  effectOf,
  readOnly,
} from './approvals';
export {
  AgentEvent,
  type AgentEventSink,
  type AgentEventType,
  EditedFile,
  TransportState,
  TurnMetrics,
} from './events';
export { summarizeCall } from './callSummary';
export { DEFAULT_INSTRUCTIONS } from './instructions';
export { ModelOptions, ReasoningEffort, ReasoningSummary, Verbosity, modelFields } from './modelOptions';
export { USER_AGENT, WEBSOCKET_BETA } from './requestBody';
export {
  type SessionOptions,
  SessionTransport,
  type TransportMode,
  type TurnOutcome,
  type TurnRequest,
} from './sessionTransport';
export { type SessionHeader, Transcript, TranscriptError, TranscriptRecord } from './transcript';
export { AgentStop, TurnCancelled } from './transportFault';
