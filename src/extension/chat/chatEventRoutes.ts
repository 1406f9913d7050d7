import type { AgentEvent } from '../../agent';
import { type HookCards, hookOnCard } from './entries/hookLines';

// Where each of the agent's events goes in the chat: one handler per event type, a table the compiler checks
// whole (an event added to the agent without a route here does not compile), as viewRoutes.ts does for the
// page's messages. The handlers are the chat model's (chatModel.ts); this says only which one takes what.

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

export type EventRoutes = { [T in AgentEvent['type']]: (event: Of<T>) => void };

/** What the routes change: the chat model's handlers, one per kind of change. */
export interface ChatSurface extends HookCards {
  thinking(event: Of<'reasoning_delta'>): void;
  text(event: Of<'text_delta'>): void;
  callDelta(event: Of<'tool_call_delta'>): void;
  callStarted(event: Of<'tool_started'>): void;
  callFinished(event: Of<'tool_finished'>): void;
  hostedCall(event: Of<'hosted_call'>): void;
  discarded(event: Of<'output_discarded'>): void;
  message(event: Of<'message'>): void;
  steered(event: Of<'steered'>): void;
  transport(event: Of<'transport'>): void;
  turnFinished(event: Of<'turn_finished'>): void;
  compacted(event: Of<'compacted'>): void;
  done(event: Of<'done'>): void;
}

/** Events the chat shows nothing of. */
const nothing = (): void => undefined;

export function eventRoutes(chat: ChatSurface): EventRoutes {
  return {
    reasoning_delta: (event) => chat.thinking(event),
    text_delta: (event) => chat.text(event),
    tool_call_delta: (event) => chat.callDelta(event),
    tool_started: (event) => chat.callStarted(event),
    tool_finished: (event) => chat.callFinished(event),
    hosted_call: (event) => chat.hostedCall(event),
    output_discarded: (event) => chat.discarded(event),
    message: (event) => chat.message(event),
    steered: (event) => chat.steered(event),
    transport: (event) => chat.transport(event),
    turn_finished: (event) => chat.turnFinished(event),
    compacted: (event) => chat.compacted(event),
    done: (event) => chat.done(event),
    // The `done` that follows an error has the same sentence as its reason, with the stop's code: its line says it once.
    error: nothing,
    turn_started: nothing,
    // A hook's decision is a line on its call's card (hookLines.ts); other notices are the log's.
    notice: (event) => hookOnCard(chat, event),
    retry: nothing,
    // A review's findings are shown by the review's own front end (src/extension/review), not as a chat line.
    review: nothing,
  };
}

/** Hands `event` to its route. */
export function routeEvent(routes: EventRoutes, event: AgentEvent): void {
  (routes[event.type] as (event: AgentEvent) => void)(event);
}
