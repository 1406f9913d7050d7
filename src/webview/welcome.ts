import type { BackendInfo } from '../protocol/chatView';
import { button, h } from './dom';
import { t } from './l10n';

// What an empty chat shows instead of a blank pane: what Loopwire does, a few prompts to start from (a click
// puts one in the prompt box), and which backend answers — the offline one, or which endpoint.

export const EXAMPLE_PROMPTS = [
  'Fix the failing test.',
  'Explain how the cart total is computed.',
  'Add a test for applyDiscount.',
];

export function backendLine(backend: BackendInfo): string {
  return backend.offline
    ? t('Offline: the built-in scripted backend — nothing leaves this machine.')
    : t('Endpoint: {0}', backend.label);
}

export function welcomeView(backend: BackendInfo | undefined, choose: (prompt: string) => void): HTMLElement {
  return h(
    'div',
    { class: 'welcome', attrs: { role: 'region', 'aria-label': t('Start a chat') } },
    h(
      'p',
      { class: 'welcome-intro' },
      t(
        'Loopwire works in this workspace: it reads your code, runs your tasks and proposes edits you review hunk by hunk.',
      ),
    ),
    h(
      'div',
      { class: 'welcome-examples', attrs: { role: 'group', 'aria-label': t('Example prompts') } },
      ...EXAMPLE_PROMPTS.map((prompt) => {
        const example = button(prompt, () => choose(prompt), { icon: 'comment', title: t('Ask: {0}', prompt) });
        example.classList.add('example');
        return example;
      }),
    ),
    backend
      ? h(
          'p',
          { class: `welcome-backend${backend.offline ? ' offline' : ''}` },
          h('span', {
            class: `codicon codicon-${backend.offline ? 'debug-disconnect' : 'cloud'}`,
            attrs: { 'aria-hidden': 'true' },
          }),
          h('span', {}, backendLine(backend)),
        )
      : undefined,
  );
}
