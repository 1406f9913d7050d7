import type { Agent, AgentEvent, ApprovalMode, ApprovalPolicy, Transcript } from '../../agent';
import { BackgroundCommands, type SessionEvent } from '../../tools';
import { windowApprovals } from '../trust/approvalPrompt';
import { readSettings, taskFolder } from '../settings/settings';

// A task another extension runs through Loopwire's API (`runTask`): a transcript of its own, an agent on the
// window's socket in the approval mode asked for (else the window's), and its answer's text when it ends. Its
// commands running in the background are its own (no chat's list shows them, no chat's Stop reaches them),
// and stop when it ends, as `loopwire exec`'s do when it exits: no process outlives the task that started it.

export interface TaskOutcome {
  ok: boolean;
  text: string;
  turns: number;
  transport: 'ws' | 'http';
}

/** What a task needs of the window's runtime. */
export interface TaskWindow {
  newTranscript(model: string | undefined): Transcript;
  agentFor(
    transcript: Transcript,
    approvals: ApprovalPolicy,
    emit: (event: AgentEvent) => void,
    commands: BackgroundCommands,
  ): Promise<Agent>;
  approvalMode(): ApprovalMode;
  log(line: string): void;
  /** One of its commands went on in the background, or ended. */
  commandEvent(event: SessionEvent): void;
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
  const commands = new BackgroundCommands((event) => window.commandEvent(event));
  const approvals = windowApprovals(approve ?? window.approvalMode());
  const done = await window
    .agentFor(
      transcript,
      approvals,
      (event) => {
        // A progress note (`phase: commentary`) is not the answer.
        if (event.type === 'message' && event.phase !== 'commentary') texts.push(event.text);
        if (event.type === 'turn_finished') last = event.metrics.transport;
      },
      commands,
    )
    .then((agent) => agent.run(prompt, signal))
    .finally(() => commands.stopAll());
  window.log(
    `task ${transcript.header.id}: ${done.status} (${done.reason}), ${done.turns} turns, ${done.toolCalls} tool calls`,
  );
  return { ok: done.status === 'completed', text: texts.join('\n\n'), turns: done.turns, transport: last };
}
