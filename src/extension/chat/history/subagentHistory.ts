import type { Transcript } from '../../../agent';
import type { ChatEntry, SubagentView, ToolCall, ToolEntry } from '../../../protocol/chatView';
import type { ToolRegistry } from '../../../tools';
import { transcriptEntries } from './transcriptEntries';

// Subagents in a chat reopened (issue 49 item 4): from its transcript, where the panel kept no snapshot,
// each subagent the transcript keeps (their conversations are in the parent's file) is nested again in the
// spawn_agent card that started it, with its calls, its answer and where it ended; from a snapshot saved
// mid-task, a subagent shown running is shown as stopped, as the task it belonged to.

type KeptSubagent = Transcript['subagents'][number];

/** A kept subagent's view: its own items only (a fork's copy of its parent's conversation is not its own). */
function viewOf(kept: KeptSubagent, tools: ToolRegistry): SubagentView {
  const own = kept.transcript.items.slice(kept.start.forkedAt ?? 0);
  const entries = transcriptEntries(own, tools);
  const task = entries.find((entry) => entry.kind === 'user');
  const answer = entries.findLast((entry) => entry.kind === 'assistant' && !entry.note);
  const calls = entries.flatMap((entry): ToolCall[] => {
    if (entry.kind !== 'tool') return [];
    const { subagent: _subagent, waited: _waited, ...call } = entry;
    return [call];
  });
  return {
    id: kept.id,
    ...(kept.start.agentType ? { type: kept.start.agentType } : {}),
    task: task?.kind === 'user' ? task.text : '',
    ...stateOf(kept.status),
    calls,
    ...(answer?.kind === 'assistant' ? { answer: answer.text } : {}),
  };
}

/** Where it ended, as its last final status says; none kept: its session ended while it ran. */
function stateOf(status: KeptSubagent['status']): Pick<SubagentView, 'state' | 'reason'> {
  if (typeof status === 'object' && 'completed' in status) return { state: 'done' };
  if (typeof status === 'object') return { state: 'failed', reason: status.errored };
  return { state: 'stopped' };
}

/** `entries` (a transcript's, transcriptEntries.ts) with each kept subagent nested in its spawn card. */
export function withSubagents(entries: ChatEntry[], kept: readonly KeptSubagent[], tools: ToolRegistry): ChatEntry[] {
  if (kept.length === 0) return entries;
  const byCall = new Map(kept.map((subagent) => [subagent.start.parentCallId, subagent]));
  return entries.map((entry) => {
    const subagent = entry.kind === 'tool' ? byCall.get(entry.id) : undefined;
    return subagent ? { ...(entry as ToolEntry), subagent: viewOf(subagent, tools) } : entry;
  });
}

/** A subagent saved running (its window went away mid-task): stopped, its calls that were under way ended. */
export function settledSubagent(view: SubagentView, cutShort: string): SubagentView {
  if (view.state !== 'running') return view;
  const calls = view.calls.map((call): ToolCall => {
    if (!['streaming', 'approval', 'running'].includes(call.status)) return call;
    const { ask: _ask, ...rest } = call;
    return { ...rest, status: 'failed', output: call.output ?? cutShort };
  });
  return { ...view, state: 'stopped', calls };
}
