import type { HandoffOffer, ViewMessage } from '../protocol/chatView';
import { button, h } from './dom';
import { t } from './l10n';

// A custom agent's handoffs (VS Code's `handoffs`): after a task it ran completed, one button each just under
// the conversation, so the next step is one click (or Tab and Enter) away. A click asks the host to switch the
// agent picker to the handoff's agent and to fill the composer with its prompt, or send it; the buttons go at
// once, and the host takes them away when the next task starts. Hidden while none is offered.

/** What a button's tooltip says it does. */
function titleOf(offer: HandoffOffer): string {
  const to =
    offer.mode === 'plan'
      ? t('Switch to {0} in plan mode (this prompt only)', offer.agent)
      : offer.mode === 'read-only'
        ? t('Switch to {0}, read-only (this prompt only)', offer.agent)
        : t('Switch to {0}', offer.agent);
  const model = offer.model === undefined ? '' : ` (${offer.model})`;
  if (offer.prompt === undefined) return `${to}${model}`;
  const prompt = offer.prompt.length > 300 ? `${offer.prompt.slice(0, 300)}…` : offer.prompt;
  return offer.send ? t('{0} and send: {1}', `${to}${model}`, prompt) : t('{0} with: {1}', `${to}${model}`, prompt);
}

export class HandoffBar {
  private readonly buttons = h('div', { class: 'handoff-buttons' });
  readonly element = h(
    'div',
    { class: 'handoffs hidden', attrs: { role: 'group', 'aria-label': t('Hand off to another agent') } },
    h('span', { class: 'handoffs-text' }, t('Next:')),
    this.buttons,
  );

  constructor(private readonly post: (message: ViewMessage) => void) {}

  /** Shows a button for each of `offers` in place of those shown (none: hidden). */
  show(offers: readonly HandoffOffer[]): void {
    this.element.classList.toggle('hidden', offers.length === 0);
    this.buttons.replaceChildren(
      ...offers.map((offer, index) => {
        const each = button(offer.label, () => this.take(index, offer.label), {
          icon: offer.send ? 'send' : 'arrow-right',
          title: titleOf(offer),
        });
        each.classList.add('handoff');
        each.dataset.agent = offer.agent;
        if (offer.mode) each.dataset.mode = offer.mode;
        return each;
      }),
    );
  }

  private take(index: number, label: string): void {
    this.show([]);
    this.post({ type: 'handoff', index, label });
  }
}
