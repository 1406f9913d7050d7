import type { AgentEvent } from '../../../agent';
import { BackgroundCommands, type SessionEvent } from '../../../tools';
import type { ChatHost } from '../chatPort';

// Each open chat's own commands running in the background (issue 49): one registry per chat, so that the
// panel lists only the shown chat's, its Stop (a card's, the task's, New Chat, closing the chat) ends only
// its own, and a session id the model names in write_stdin finds only its own chat's command — each registry
// numbers its sessions from 1, so the same id in another chat is another command, never reached from here.
// The window's close stops every chat's.

/** The chat's port with its own registry: its agent keeps its sessions there, the panel's list reads them. */
export function withOwnCommands(
  base: ChatHost,
  commands: BackgroundCommands,
): Pick<ChatHost, 'agent' | 'commands' | 'stopCommands'> {
  const stopCommands = () => void commands.stopAll();
  return {
    commands,
    stopCommands,
    agent: (transcript, approvals, emit, tools, choices) =>
      base.agent(
        transcript,
        approvals,
        (event: AgentEvent) => {
          emit(event);
          // Stop ends what the chat left running in the background too (a subagent's end is not the task's).
          if (!event.agent && event.type === 'done' && event.status === 'cancelled') stopCommands();
        },
        tools,
        choices,
      ),
  };
}

/** A chat's registry; `told` hears its sessions go on in the background and end (the window's log). */
export function chatCommands(chat: string, told?: (chat: string, event: SessionEvent) => void): BackgroundCommands {
  return new BackgroundCommands((event) => told?.(chat, event));
}
