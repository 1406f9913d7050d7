import type { AgentEvent } from '../../agent';
import type { ToolRegistry } from '../../tools';
import { followBackground } from './entries/backgroundCards';
import type { ChatCheckpoints } from './checkpoints/chatCheckpoints';
import type { ChatCommands } from './chatPort';
import type { ChatModel } from './chatModel';
import type { PromptQueue } from './composer/chatQueue';
import type { ChatOutbox } from './chatOutbox';
import { messageOf } from './messageOf';
import type { ReviewBook } from '../review/reviewBook';

// What an event of the chat's agent does to the chat: it shows in the panel's model, a steer is marked
// delivered in the queue, a command or task is noted in the prompt's checkpoint, an edit goes under review.

/** The parts of the chat an event reaches (the controller's own). */
export interface ChatEventTargets {
  readonly model: ChatModel;
  readonly queue: PromptQueue;
  readonly checkpoints: ChatCheckpoints;
  readonly reviews: ReviewBook;
  readonly backend: { log(line: string): void; readonly commands?: ChatCommands };
  readonly outbox: ChatOutbox;
}

/** What streams: shown at once (the user waits for it), and never in a turn's gap. */
const STREAMED: ReadonlySet<AgentEvent['type']> = new Set(['text_delta', 'reasoning_delta', 'tool_call_delta']);

/** `event` of the agent whose tools are `registry` (undefined: the chat has no agent now). */
export function onChatEvent(event: AgentEvent, chat: ChatEventTargets, registry: ToolRegistry | undefined): void {
  // The rest comes between a response and the next request: what it shows goes after that request (chatOutbox.ts).
  if (!STREAMED.has(event.type)) chat.outbox.hold();
  chat.model.handle(event);
  if (event.type === 'done') chat.outbox.flush();
  // A subagent steered by its parent (send_input) took none of the user's queued prompts.
  if (event.type === 'steered' && !event.agent) chat.queue.delivered(event.text);
  // A command or task may change files too, and is not journaled: the checkpoint says it ran.
  if (event.type === 'tool_started' && registry?.effect(event.name) === 'task')
    chat.checkpoints.unjournaled(event.name);
  if (event.type === 'tool_finished') followBackground(event, chat.model, chat.backend.commands);
  if (event.type === 'tool_finished' && event.edits) {
    const { callId, turn, edits } = event;
    chat.reviews.add(callId, turn, edits).catch((error: unknown) => chat.backend.log(`review: ${messageOf(error)}`));
  }
}
