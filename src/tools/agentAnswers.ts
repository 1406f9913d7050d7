import type { AgentControl, Refusal } from './agentControl';
import { type ToolResult, failure, success } from './tool';

// What the subagent tools share around the agent's control (agentControl.ts): finding it in the call's
// context, and its answer as the call's output.

/** The control of the call's context, or the answer for a model offered the tools where none is. */
export function controlOf(agents: AgentControl | undefined): AgentControl | ToolResult {
  return agents ?? failure('Subagents are not available here. Do the task yourself.');
}

/** A control's answer as the call's output: its JSON, or the refusal's words. */
export function answer<T extends object>(result: T | Refusal, shape: (value: T) => unknown): ToolResult {
  if ('refused' in result) return failure(result.refused);
  return success(JSON.stringify(shape(result)));
}

/** Whether the control's answer is the tool's own result (no control here). */
export const isResult = (value: AgentControl | ToolResult): value is ToolResult => 'ok' in value;
