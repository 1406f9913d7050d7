import type { Agent, AgentEvent, ApprovalMode, ApprovalPolicy, Transcript } from '../../agent';
import { windowApprovals } from '../trust/approvalPrompt';
import { readSettings, taskFolder } from '../settings/settings';

// A task another extension runs through Loopwire's API (`runTask`): a transcript of its own, an agent on the
// window's socket in the approval mode asked for (else the window's), and its answer's text when it ends.

export interface TaskOutcome {
  ok: boolean;
  text: string;
  turns: number;
  transport: 'ws' | 'http';
}

/** What a task needs of the window's runtime. */
export interface TaskWindow {
  newTranscript(model: string | undefined): Transcript;
  agentFor(transcript: Transcript, approvals: ApprovalPolicy, emit: (event: AgentEvent) => void): Promise<Agent>;
  approvalMode(): ApprovalMode;
  log(line: string): void;
}

/** Runs `prompt` to its end; the answer is every message but the progress notes. */
export async function runWindowTask(
  window: TaskWindow,
  prompt: string,
  approve?: Exclude<ApprovalMode, 'ask'>,
  signal?: AbortSignal,
): Promise<TaskOutcome> {
  const settings = readSettings(taskFolder());
  const texts: string[] = [];
  let last: 'ws' | 'http' = settings.transport === 'http' ? 'http' : 'ws';
  const transcript = window.newTranscript(settings.model);
  const agent = await window.agentFor(transcript, windowApprovals(approve ?? window.approvalMode()), (event) => {
    // A progress note (`phase: commentary`) is not the answer.
    if (event.type === 'message' && event.phase !== 'commentary') texts.push(event.text);
    if (event.type === 'turn_finished') last = event.metrics.transport;
  });
  const done = await agent.run(prompt, signal);
  window.log(
    `task ${transcript.header.id}: ${done.status} (${done.reason}), ${done.turns} turns, ${done.toolCalls} tool calls`,
  );
  return { ok: done.status === 'completed', text: texts.join('\n\n'), turns: done.turns, transport: last };
}
