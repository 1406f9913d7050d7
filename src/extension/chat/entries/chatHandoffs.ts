import { type CustomAgent, DEFAULT_AGENT_NAME, type FrontChoices, handoffOffer } from '../../../agent';
import type { HandoffOffer, HostMessage } from '../../../protocol/chatView';
import type { PromptChoices } from '../composer/promptTurn';

// A custom agent's handoffs (src/agent/customAgents/customAgentHandoffs.ts) as the chat offers them: once a task
// run by an agent that has some completes (not stopped, not failed), one button each under the answer; they go
// when the next task starts, or the chat shown changes. The agent a task ran as is read from the choices of its
// requests (the picker's, or a prompt file's `agent`), so a handoff is that agent's and no other's. A click
// (chatController.ts) switches the picker to the target and fills the composer, or sends the prompt. The agent
// whose buttons show is kept in the chat's snapshot, so a reloaded window or a reopened chat shows them again,
// as that agent has them now (restore).

export class ChatHandoffs {
  /** The custom agent of the running task's last request (null or undefined: Loopwire's own). */
  private ranAs: CustomAgent | null | undefined;
  private offered: HandoffOffer[] = [];
  /** The agent whose handoffs are offered (none offered: undefined). */
  private by: string | undefined;
  /** The handoff taken: the prompt it sends, or the next one sent, goes with its model and mode (once). */
  private pending: PromptChoices | undefined;

  constructor(private readonly post: (message: HostMessage) => void) {}

  /** The handoffs offered now (a `state` carries them). */
  get current(): readonly HandoffOffer[] {
    return this.offered;
  }

  /** The name of the agent whose handoffs are offered now, for the chat's snapshot; undefined: none are. */
  get offeredBy(): string | undefined {
    return this.by;
  }

  /** A request's choices, as the agent reads them: the agent it goes as is noted. Returns them unchanged. */
  noted(choices: FrontChoices): FrontChoices {
    this.ranAs = choices.agent;
    return choices;
  }

  /** A task starts: the buttons go. */
  started(): void {
    this.ranAs = undefined;
    this.offer([], undefined);
  }

  /** A task ended: where it completed, its agent's handoffs are offered. */
  ended(status: string): void {
    const agent = status === 'completed' ? this.ranAs : undefined;
    this.offer((agent?.handoffs ?? []).map(handoffOffer), agent?.name);
  }

  /** Another conversation is shown, or a new chat: nothing is offered. */
  clear(): void {
    this.pending = undefined;
    this.started();
  }

  /**
   * A reopened chat whose snapshot says `name`'s handoffs were offered: they are again, as that agent has them
   * among the `agents` found now (the picker's); an agent gone since offers none, a handoff to one gone is not shown.
   */
  async restore(name: string | undefined, agents: () => Promise<readonly CustomAgent[]>): Promise<void> {
    if (name === undefined) return;
    const found = await agents();
    const names = new Set([DEFAULT_AGENT_NAME, ...found.map((each) => each.name)]);
    const agent = found.find((each) => each.name === name);
    const handoffs = (agent?.handoffs ?? []).filter((handoff) => names.has(handoff.agent));
    this.offer(handoffs.map(handoffOffer), agent?.name);
  }

  /** The button clicked, where it is still offered as shown (a stale click does nothing); the buttons go. */
  take(index: number, label: string): HandoffOffer | undefined {
    const offer = this.offered[index];
    if (offer?.label !== label) return undefined;
    this.offer([], undefined);
    const mode = offer.mode === 'plan' ? { plan: true as const } : offer.mode ? { readOnly: true as const } : {};
    this.pending = { ...(offer.model === undefined ? {} : { model: offer.model }), ...mode };
    return offer;
  }

  /** The model and mode the handoff taken gives the prompt sent next (taken once; none: undefined). */
  takeChoices(): PromptChoices | undefined {
    const pending = this.pending;
    this.pending = undefined;
    return pending;
  }

  private offer(offers: HandoffOffer[], by: string | undefined): void {
    this.by = offers.length === 0 ? undefined : by;
    if (offers.length === 0 && this.offered.length === 0) return;
    this.offered = offers;
    this.post({ type: 'handoffs', handoffs: offers });
  }
}
