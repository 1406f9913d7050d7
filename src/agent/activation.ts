// What the window needs of the agent before its session starts, and nothing more: the approval modes and
// where the window's mode comes from, the endpoint's origin, the shape of the proxy settings, the plan tool's
// settings. Every file named here is small and imports nothing heavy (no zod, no socket, no tool), so
// dist/extension.js, which activation loads, stays a few kilobytes; the agent itself (src/agent/index.ts)
// is in dist/runtime.js, loaded on first use. src/extension imports the agent through this file or the
// index, never a file of its own (eslint.config.mjs).
export { APPROVAL_MODES, type ApprovalMode, isApprovalMode } from './approvals/approvals';
export {
  ApprovalCache,
  type ApprovalSource,
  type ApprovalSources,
  type ResolvedApproval,
  resolveApproval,
  stricter,
} from './approvals/approvalSources';
export { PLAN_TOOL_SETTINGS, type PlanToolSetting } from './approvals/planMode';
export { OPENAI_ORIGIN, endpointOrigin, originLabel, sameOrigin } from './transport/endpointOrigin';
export type { ProxySettings } from './transport/proxy';
