import type { ViewMessage } from '../protocol/chatView';
import type { Plan, PlanStatus } from '../protocol/plan';
import { button, h } from './dom';
import { t } from './l10n';

// The task's plan as a checklist above the composer, where it stays in view while the conversation scrolls:
// a fold with how far it is (`Plan · 2 of 5 done`), the model's explanation, then each step with its state.
// The host sends the whole plan each time it changes; the fold is kept and only its content is drawn again,
// so a folded plan stays folded. Hidden while the chat has none. Under it, after a task that answered in plan
// mode, Implement: the host leaves plan mode and the chat goes on with the plan (planImplement.ts).

const ICONS: Readonly<Record<PlanStatus, string>> = {
  completed: 'pass-filled',
  in_progress: 'circle-large-filled',
  pending: 'circle-large-outline',
};

/** What a screen reader says of a step's state (the icons are hidden from it). */
const SPOKEN: Readonly<Record<PlanStatus, string>> = {
  completed: t('Done: '),
  in_progress: t('In progress: '),
  pending: t('To do: '),
};

export class PlanDock {
  private readonly progress = h('span', { class: 'plan-progress' });
  private readonly explanation = h('div', { class: 'plan-explanation' });
  private readonly steps = h('ol', { class: 'plan-steps' });
  private readonly checklist = h(
    'details',
    { class: 'plan-dock hidden', attrs: { open: '', 'aria-label': t('Plan') } },
    h(
      'summary',
      { class: 'plan-summary' },
      h('span', { class: 'codicon codicon-checklist', attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'plan-title' }, t('Plan')),
      this.progress,
    ),
    this.explanation,
    this.steps,
  );
  private readonly implementBar = h(
    'div',
    { class: 'plan-implement hidden', attrs: { role: 'group', 'aria-label': t('Plan mode') } },
    h('span', { class: 'plan-implement-text' }, t('Planned in plan mode: nothing was changed.')),
    button(t('Implement'), () => this.implement(), {
      icon: 'play',
      kind: 'primary',
      title: t('Go back to the approval mode you had before plan mode, and implement the plan in this chat'),
    }),
  );
  readonly element = h('div', { class: 'plan-area' }, this.checklist, this.implementBar);

  constructor(private readonly post: (message: ViewMessage) => void) {}

  /** Shows `plan` in place of the one shown (null or undefined: none, hidden), and Implement where offered. */
  show(plan: Plan | null | undefined, implement = false): void {
    this.implementBar.classList.toggle('hidden', !implement);
    this.checklist.classList.toggle('hidden', !plan);
    if (!plan) return this.steps.replaceChildren();
    const done = plan.plan.filter((step) => step.status === 'completed').length;
    this.progress.textContent = t('{0} of {1} done', done, plan.plan.length);
    this.explanation.textContent = plan.explanation?.trim() ?? '';
    this.explanation.classList.toggle('hidden', !plan.explanation?.trim());
    this.steps.replaceChildren(
      ...plan.plan.map((step) =>
        h(
          'li',
          { class: `plan-step ${step.status.replace('_', '-')}` },
          h('span', { class: `codicon codicon-${ICONS[step.status]}`, attrs: { 'aria-hidden': 'true' } }),
          h('span', { class: 'visually-hidden' }, SPOKEN[step.status]),
          h('span', { class: 'plan-step-text' }, step.step),
        ),
      ),
    );
  }

  private implement(): void {
    this.implementBar.classList.add('hidden');
    this.post({ type: 'implement' });
  }
}
