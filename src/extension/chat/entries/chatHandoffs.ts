import { type CustomAgent, type FrontChoices, handoffOffer } from '../../../agent';
import type { HandoffOffer, HostMessage } from '../../../protocol/chatView';

// A custom agent's handoffs (src/agent/customAgents/customAgentHandoffs.ts) as the chat offers them: once a task
// run by an agent that has some completes (not stopped, not failed), one button each under the answer; they go
// when the next task starts, or the chat shown changes. The agent a task ran as is read from the choices of its
// requests (the picker's, or a prompt file's `agent`), so a handoff is that agent's and no other's. A click
// (chatController.ts) switches the picker to the target and fills the composer, or sends the prompt.

export class ChatHandoffs {
  /** The custom agent of the running task's last request (null or undefined: Loopwire's own). */
  private ranAs: CustomAgent | null | undefined;
  private offered: HandoffOffer[] = [];
  /** The model of the handoff taken: the prompt it sends, or the next one sent, goes with it (once). */
  private pendingModel: string | undefined;

  constructor(private readonly post: (message: HostMessage) => void) {}

  /** The handoffs offered now (a `state` carries them). */
  get current(): readonly HandoffOffer[] {
    return this.offered;
  }

  /** A request's choices, as the agent reads them: the agent it goes as is noted. Returns them unchanged. */
  noted(choices: FrontChoices): FrontChoices {
    this.ranAs = choices.agent;
    return choices;
  }

  /** A task starts: the buttons go. */
  started(): void {
    this.ranAs = undefined;
    this.offer([]);
  }

  /** A task ended: where it completed, its agent's handoffs are offered. */
  ended(status: string): void {
    const handoffs = status === 'completed' ? (this.ranAs?.handoffs ?? []) : [];
    this.offer(handoffs.map(handoffOffer));
  }

  /** Another conversation is shown, or a new chat: nothing is offered. */
  clear(): void {
    this.pendingModel = undefined;
    this.started();
  }

  /** The button clicked, where it is still offered as shown (a stale click does nothing); the buttons go. */
  take(index: number, label: string): HandoffOffer | undefined {
    const offer = this.offered[index];
    if (offer?.label !== label) return undefined;
    this.offer([]);
    this.pendingModel = offer.model;
    return offer;
  }

  /** The model the handoff taken named, for the prompt sent next (taken once). */
  takeModel(): string | undefined {
    const model = this.pendingModel;
    this.pendingModel = undefined;
    return model;
  }

  private offer(offers: HandoffOffer[]): void {
    if (offers.length === 0 && this.offered.length === 0) return;
    this.offered = offers;
    this.post({ type: 'handoffs', handoffs: offers });
  }
}
