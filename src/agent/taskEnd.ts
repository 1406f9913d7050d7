import { t } from '@vscode/l10n';
import type { AgentEvent, AgentEventSink } from './events';
import { AgentStop, TurnCancelled } from './transport/transportFault';

// How a task of the loop (agentLoop.ts) ends: the status its `done` event says, and what a throw out of its
// turns means for it. Apart from the loop so that its file stays about the turns.

export type DoneEvent = Extract<AgentEvent, { type: 'done' }>;

/** How a task ends: its status, the reason said, the code the front ends pick a remedy by. */
export type TaskEnd = [status: DoneEvent['status'], reason: string, code?: string];

/** How a throw ends the task: a cancel, a stop the loop said (an `error` event too), or a fault of ours. */
export function endOfError(error: unknown, emit: AgentEventSink): TaskEnd {
  if (error instanceof TurnCancelled) return ['cancelled', t('cancelled by the user'), 'cancelled'];
  if (error instanceof AgentStop) {
    emit({ type: 'error', code: error.code, message: error.message });
    return ['failed', error.message, error.code];
  }
  const message = error instanceof Error ? error.message : String(error);
  emit({ type: 'error', code: 'internal', message });
  return ['failed', t('an internal error: {0}', message), 'internal'];
}
