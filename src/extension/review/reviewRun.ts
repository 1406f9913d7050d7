import type { ApprovalPolicy } from '../../agent';
import { ToolRegistry } from '../../tools';
import { readSettings, taskFolder } from '../settings/settings';
import { windowApprovals } from '../trust/approvalPrompt';
import type { WindowRuntime } from '../windowRuntime';

// A review's task on the window's runtime: its own transcript (kept apart from the chats', as an inline edit's
// is) and its own lane of the window's socket, so that it runs beside a chat's task rather than after it, in the
// read-only approval mode, offered only the tools that read (src/agent/review). The lane narrows the tools the
// way an inline edit's does (WindowRuntime.agentFor): no skills list, commands run to their end, and the early
// end on an edit never comes, since no tool that edits is offered.

/** How a review's task ended: its final answer (the findings' block is read from it), or why it did not. */
export interface ReviewOutcome {
  ok: boolean;
  answer: string;
  reason: string;
}

export async function runReview(
  runtime: WindowRuntime,
  prompt: string,
  tools: readonly string[],
  signal?: AbortSignal,
): Promise<ReviewOutcome> {
  const transcript = runtime.newTranscript(readSettings(taskFolder()).model, 'review');
  const only = (registry: ToolRegistry) => new ToolRegistry(registry.tools.filter((tool) => tools.includes(tool.name)));
  const approvals: ApprovalPolicy = windowApprovals('read-only');
  let answer = '';
  const agent = await runtime.agentFor(
    transcript,
    approvals,
    (event) => {
      // The task's answer: not a progress note, not a subagent's.
      if (event.type === 'message' && event.phase !== 'commentary' && event.agent === undefined) answer = event.text;
    },
    undefined,
    { id: `review-${transcript.header.id}`, inline: only },
  );
  const done = await agent.run(prompt, signal);
  return { ok: done.status === 'completed', answer, reason: done.reason };
}
