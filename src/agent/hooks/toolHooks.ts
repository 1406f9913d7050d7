import type { AgentEventSink } from '../events';
import { AgentStop } from '../transport/transportFault';
import { type AgentHooks, hookDecided } from './agentHooks';

// Where hooks meet a tool call (toolRunner.ts): PreToolUse before the approval gate, PostToolUse after the
// call ran. A PreToolUse `allow` skips the question, never the user's deny rules nor the sandbox; `ask` asks
// even where the mode would not; `deny` answers the model with the hook's reason and runs nothing.

/** What the PreToolUse hooks decided about a call; undefined where none matched or none decided. */
export type PreToolDecision = { decision: 'allow' | 'ask' | 'deny'; reason: string | undefined } | undefined;

/** A call's input as the hook reads it: its JSON arguments as an object (with `command` for a command line). */
function toolInput(input: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return { input };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { input };
  const fields = parsed as Record<string, unknown>;
  // Claude Code's Bash hooks read `tool_input.command`; ours is `cmd`.
  return typeof fields['cmd'] === 'string' && fields['command'] === undefined
    ? { ...fields, command: fields['cmd'] }
    : fields;
}

/** Runs the PreToolUse hooks of call `callId` (`name`, `input`), says what they decided, and returns it. */
export async function beforeCall(
  hooks: AgentHooks,
  call: { callId: string; name: string; input: string },
  emit: AgentEventSink,
): Promise<PreToolDecision> {
  const fields = { tool_name: call.name, tool_input: toolInput(call.input), tool_use_id: call.callId };
  const verdict = await hooks.run('PreToolUse', fields, emit, call.name);
  if (!verdict) return undefined;
  if (verdict.stop !== undefined) throw new AgentStop('hook_stopped', verdict.stop);
  const decision = verdict.decision === 'block' ? 'deny' : verdict.decision;
  if (decision === undefined) return undefined;
  hookDecided(emit, 'PreToolUse', decision, verdict.reason, call.callId);
  return { decision, reason: verdict.reason };
}

/** What the model is told of a call a PreToolUse hook denied. */
export function deniedByHook(name: string, reason: string | undefined): string {
  return (
    `This ${name} call was not run: a PreToolUse hook the user set up denied it` +
    `${reason ? `, saying: ${reason.trim()}` : '.'}\nNothing was changed. Do not retry it as it is.`
  );
}

/** Runs the PostToolUse hooks of a call that ran; the text to add to its output for the model, if any. */
export async function afterCall(
  hooks: AgentHooks,
  call: { callId: string; name: string; input: string; output: string; ok: boolean },
  emit: AgentEventSink,
): Promise<string | undefined> {
  const fields = {
    tool_name: call.name,
    tool_input: toolInput(call.input),
    tool_use_id: call.callId,
    tool_response: { output: call.output, success: call.ok },
  };
  const verdict = await hooks.run('PostToolUse', fields, emit, call.name);
  if (!verdict) return undefined;
  if (verdict.stop !== undefined) throw new AgentStop('hook_stopped', verdict.stop);
  const said = [verdict.decision === 'block' ? verdict.reason : undefined, verdict.context].filter(Boolean);
  if (said.length === 0) return undefined;
  const decided = verdict.decision === 'block' ? 'block' : 'context';
  hookDecided(emit, 'PostToolUse', decided, said.join('\n'), call.callId);
  return `\n\n(A PostToolUse hook the user set up says: ${said.join('\n')})`;
}
