import type { ViewMessage } from '../../protocol/chatView';

// Where each of the page's messages goes: one handler per message type, a table the compiler checks whole
// (a message type added to the protocol without a handler does not compile).

type Outcome = void | Promise<void>;

export type ViewRoutes = { [T in ViewMessage['type']]: (message: Extract<ViewMessage, { type: T }>) => Outcome };

/** Hands `message` to its route. */
export function route(routes: ViewRoutes, message: ViewMessage): Outcome {
  return (routes[message.type] as (message: ViewMessage) => Outcome)(message);
}
