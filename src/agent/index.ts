// The agent core: the loop, its model transport (one socket, rotated), the transcript and the events.
// Plain Node; the editor is reached only through the Workspace port the tools are given.
export { Agent, type AgentOptions, type DoneEvent, type PromptWithParts, type RequestChoices } from './agentLoop';
export {
  ATTACHMENTS_MAX_BYTES,
  ATTACHMENT_MAX_BYTES,
  AttachmentError,
  type AttachmentOptions,
  type AttachmentSources,
  FOLDER_MAX_FILES,
  type TerminalCommand,
  attachmentOfPart,
  attachmentParts,
} from './conversation/attachments';
export { imageInputPart, imageOfPart, promptParts } from './conversation/promptParts';
export { gitChanges } from './conversation/gitChanges';
export { DEFAULT_MAX_TURNS, NO_PROGRESS_LIMIT } from './progressWatch';
export {
  APPROVAL_MODES,
  type ApprovalAnswer,
  type ApprovalMode,
  type ApprovalPolicy,
  type ApprovalRequest,
  type Escalation,
  type ToolEffect,
  approveAll,
  askEach,
  inProtectedFolder,
  isApprovalMode,
  policyFor,
  readOnly,
} from './approvals/approvals';
export {
  type CommandDecision,
  type CommandRules,
  NO_COMMAND_RULES,
  commandApprovalNote,
  decideCommand,
  ruleMatches,
} from './approvals/commandApproval';
export { joinRules, ruleToOffer, rulesIn, withCommandRules } from './approvals/commandRules';
export { type SandboxChoice, impliedSandbox, sandboxInForce } from './approvals/callSandbox';
export { type CallGate, gateCall } from './approvals/callGate';
export {
  type AgentSession,
  type AgentSessionOptions,
  type AgentSpec,
  DEFAULT_MODEL,
  type FrontChoices,
  createAgentSession,
  newSessionId,
  newTranscript,
  normalizeEndpoint,
} from './createAgentSession';
export { type ContextPlan, DEFAULT_COMPACT_AT, contextPlan, contextWindowFor } from './conversation/contextWindow';
export {
  Checkpoint,
  CheckpointJournal,
  JournalFile,
  JournaledFile,
  type JournalWrite,
  type RestoreTarget,
  journalFile,
  loadJournal,
  saveJournal,
} from './checkpoints/checkpointJournal';
export {
  type KeptFile,
  type RestorePlan,
  type RestoredFile,
  planRestore,
  restoreCheckpoint,
} from './checkpoints/checkpointRestore';
export { forkTranscript } from './conversation/conversationFork';
export { journaledWorkspace } from './checkpoints/journaledWorkspace';
export {
  type EnvironmentFacts,
  environmentReader,
  environmentText,
  localDate,
  timeZone,
} from './instructions/environmentContext';
export {
  AgentEvent,
  type AgentEventSink,
  type AgentEventType,
  SubagentRef,
  TransportState,
  TurnMetrics,
} from './events';
export { type SubagentLimits } from './subagents/subagentLimits';
export { stopSubagent } from './subagents/subagentPool';
export { type InstructionsOptions, standingInstructions } from './instructions/instructions';
export { MODEL_CATALOGUE, type ModelProfile, UNKNOWN_MODEL, modelProfile } from './model/modelCatalogue';
export {
  ModelOptions,
  ReasoningEffort,
  ReasoningSummary,
  Verbosity,
  modelFields,
  modelOptionsFrom,
} from './model/modelOptions';
export {
  AGENTS_FILE,
  COPILOT_FILE,
  type InstructionFile,
  PROJECT_INSTRUCTIONS_MAX_BYTES,
  type ProjectInstructions,
  findProjectInstructions,
  isProjectInstructions,
  projectInstructionsUpdate,
} from './instructions/projectInstructions';
export {
  type FoundSkills,
  type Skill,
  type SkillProblem,
  type SkillScope,
  USER_SKILL_DIRS,
  WORKSPACE_SKILL_DIRS,
  findSkills,
} from './skills/skillDiscovery';
export {
  type FoundPrompts,
  type PromptFile,
  type PromptProblem,
  WORKSPACE_PROMPT_DIR,
  findPromptFiles,
} from './prompts/promptDiscovery';
export { type FilledPrompt, type PromptInput, fillPrompt, promptInputs } from './prompts/promptInputs';
export {
  BUILTIN_COMMANDS,
  type BuiltinName,
  type SlashCommand,
  parseSlash,
  slashCommands,
} from './prompts/slashCommands';
export { INIT_PROMPT } from './prompts/initPrompt';
export { promptModelId } from './prompts/promptFile';
export { type PromptAgent, promptAgent, stricterMode } from './prompts/promptAgent';
export { type ReviewRequest, prepareReview } from './review/reviewRequest';
export { ReviewFinding, ReviewReport, ReviewSeverity, parseReview } from './review/reviewFindings';
export { REVIEW_HEADING } from './review/reviewPrompt';
export { REVIEW_FORMS, type ReviewTarget, parseReviewTarget } from './review/reviewTarget';
export {
  type CustomAgent,
  type CustomAgentProblem,
  type FoundCustomAgents,
  USER_AGENT_DIRS,
  WORKSPACE_AGENT_DIRS,
  customAgentNamed,
  findCustomAgents,
} from './customAgents/customAgentDiscovery';
export { DEFAULT_AGENT_NAME } from './customAgents/customAgentFile';
export { type AgentHandoff, CustomAgentHandoff, type HandoffMode } from './customAgents/customAgentHandoffs';
export { customAgentModel, customAgentNotes, handoffOffer } from './customAgents/customAgentApply';
export { USER_AGENT, WEBSOCKET_BETA, requestHeaders } from './transport/requestBody';
export { type ProxyRoute, type ProxySettings, fetchProxyFault, proxyRoute, viaProxy } from './transport/proxy';
export { RedirectRefused, fetchSameOrigin } from './transport/redirectGuard';
export { PromptStart } from './timing/promptStart';
export {
  type TransportOptions,
  ModelTransport,
  type TransportMode,
  type TurnOutcome,
  type TurnRequest,
} from './transport/modelTransport';
export {
  type SessionHeader,
  Transcript,
  TranscriptError,
  type TranscriptNote,
  TranscriptRecord,
} from './conversation/transcript';
export { AgentStop, TurnCancelled } from './transport/transportFault';
export { AgentHooks, type HookSessionFacts, MAX_STOP_CONTINUES } from './hooks/agentHooks';
export { HOOK_EVENTS, type HookEvent, type HookSpec, parseHooks, readHookFiles } from './hooks/hookConfig';
export { readHookFileText, userHookFiles, workspaceHookFiles } from './hooks/hookFiles';
export * from './worktrees';
