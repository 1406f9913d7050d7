import { ModelTransport } from './modelTransport';
import type { TransportOptions, TurnOutcome, TurnRequest } from './transportOptions';
import { AgentStop } from './transportFault';

// A model transport that sends nothing (`loopwire exec --dump-request`): the agent builds its first turn
// as it always does — instructions, tools, fields, the context items and the prompt — and this hands the
// request's body, exactly as the first HTTP attempt would send it, to `dump`, then stops the task. No socket,
// no warm-up, no key: what a user reads is what the model would be told.

/** The stop's code: the task ended because its request was dumped, not because anything failed. */
export const REQUEST_DUMPED = 'request_dumped';

export class RequestDump extends ModelTransport {
  constructor(
    options: TransportOptions,
    private readonly dump: (body: Record<string, unknown>) => void,
  ) {
    super(options);
  }

  /** No warm-up: nothing is connected. */
  override start(): Promise<void> {
    return Promise.resolve();
  }

  override run(_turn: number, request: TurnRequest): Promise<TurnOutcome> {
    this.dump(this.httpBody(request));
    return Promise.reject(new AgentStop(REQUEST_DUMPED, 'The request was printed, not sent.'));
  }
}
