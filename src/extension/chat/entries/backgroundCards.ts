import type { AgentEvent } from '../../../agent';
import type { CommandEnd } from '../../../workspace';
import type { ChatModel } from '../chatModel';
import type { ChatCommands } from '../chatPort';

// The card of a call that left its command running in the background (exec_command past its yield time):
// the call has answered the model, but the command goes on, so the card says `running` (the page counts its
// time from the list of commands running) until the command ends, and then how: its exit code, its time.

/** After `event`: where its card left a command running, the card follows it to its end. */
export function followBackground(
  event: Extract<AgentEvent, { type: 'tool_finished' }>,
  model: Pick<ChatModel, 'tool' | 'updateTool'>,
  commands: ChatCommands | undefined,
): void {
  const id = model.tool(event.callId)?.session;
  if (id === undefined) return;
  const ended = commands?.get(id)?.session.ended;
  if (!ended) {
    // No registry to follow it in (a host without one): the call's own end is all there is to say.
    model.updateTool(event.callId, { status: 'done', session: undefined, durationMs: event.durationMs });
    return;
  }
  void ended.then((end) => {
    // Only the card still following that command: a new chat, or a chat reopened, has none.
    if (model.tool(event.callId)?.session === id) model.updateTool(event.callId, endOf(end));
  });
}

function endOf(end: CommandEnd) {
  return {
    status: end.exitCode === 0 ? ('done' as const) : ('failed' as const),
    session: undefined,
    durationMs: end.durationMs,
    exit: { code: end.exitCode, timedOut: end.timedOut },
  };
}
