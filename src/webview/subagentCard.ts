import type { SubagentView, ToolCall, WaitedAgent } from '../protocol/chatView';
import type { Post } from './diffView';
import { h } from './dom';
import { t } from './l10n';
import { renderMarkdown } from './markdown';

// A subagent under the spawn_agent card that started it (issue 49 item 4): folded to one header — its id and
// type, its task's first line, where it stands, how many calls it made — and opened, its calls' cards and its
// answer. A wait card's list of the subagents it waited for, each with its answer's first line. The host
// sends the whole card again at each step: which subagents are open is kept here, by id, so that a step does
// not fold what the user opened.

/** The subagents the user opened, by id (a page's lifetime: a reload shows them folded). */
const opened = new Set<string>();

const STATE: Record<SubagentView['state'], { icon: string; label: string }> = {
  running: { icon: 'loading codicon-modifier-spin', label: t('running') },
  done: { icon: 'check', label: t('done') },
  failed: { icon: 'error', label: t('failed') },
  stopped: { icon: 'circle-slash', label: t('stopped') },
};

const WAITED: Record<WaitedAgent['state'], { icon: string; label: string }> = {
  done: { icon: 'check', label: t('answered') },
  failed: { icon: 'error', label: t('failed') },
  running: { icon: 'clock', label: t('still running') },
  closed: { icon: 'circle-slash', label: t('closed') },
  unknown: { icon: 'question', label: t('not found') },
};

const firstLine = (text: string) => text.trim().split('\n', 1)[0] ?? '';
const icon = (name: string) => h('span', { class: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });

function callCount(view: SubagentView): string {
  return view.calls.length === 1 ? t('1 call') : t('{0} calls', view.calls.length);
}

/** The subagent's answer (model text: rendered and sanitised as every answer is). */
function answerView(answer: string): HTMLElement {
  const body = h('div', { class: 'markdown' });
  body.innerHTML = renderMarkdown(answer).trim();
  return h('div', { class: 'subagent-answer' }, h('div', { class: 'subagent-label' }, t('Answer')), body);
}

/**
 * Its own Stop, while it runs: that subagent alone stops, the task goes on. In the header, so it is there
 * folded; a click on it neither folds nor opens the card, and is sent once.
 */
function stopButton(view: SubagentView, name: string, post: Post): HTMLElement {
  const stop = h('button', {
    class: 'button icon subagent-stop',
    attrs: { type: 'button', 'aria-label': `${t('Stop')} ${name}`, title: `${t('Stop')} ${name}` },
  });
  stop.append(h('span', { class: 'codicon codicon-debug-stop', attrs: { 'aria-hidden': 'true' } }));
  stop.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    stop.disabled = true;
    post({ type: 'stop', agent: view.id });
  });
  return stop;
}

/** `view` nested in its spawn card; `callCard` draws each of its calls as the chat's own are drawn. */
export function subagentView(view: SubagentView, callCard: (call: ToolCall) => HTMLElement, post: Post): HTMLElement {
  const state = STATE[view.state];
  const name = view.type ? `${view.id} · ${view.type}` : view.id;
  const task = firstLine(view.task);
  const stop = view.state === 'running' ? stopButton(view, name, post) : undefined;
  const summary = h(
    'summary',
    {
      class: 'subagent-header',
      attrs: { title: `${t('Subagent')} ${name}: ${task} — ${state.label}, ${callCount(view)}` },
    },
    icon(state.icon),
    h('span', { class: 'subagent-name' }, name),
    h('span', { class: 'subagent-task' }, task),
    h('span', { class: 'subagent-state' }, h('span', {}, state.label), h('span', {}, callCount(view)), stop),
  );
  const details = h('details', { class: `subagent state-${view.state}`, attrs: { 'data-agent': view.id } }, summary);
  details.open = opened.has(view.id);
  details.addEventListener('toggle', () => {
    if (details.open) opened.add(view.id);
    else opened.delete(view.id);
  });
  const body = h('div', { class: 'subagent-body' });
  if (view.task.includes('\n')) body.append(h('div', { class: 'subagent-full-task' }, view.task));
  body.append(...view.calls.map((call) => h('div', { class: 'subagent-call' }, callCard(call))));
  if (view.calls.length === 0 && view.answer === undefined)
    body.append(h('div', { class: 'subagent-empty' }, view.state === 'running' ? t('Starting…') : t('No calls.')));
  if (view.answer !== undefined) body.append(answerView(view.answer));
  if (view.reason !== undefined) body.append(h('div', { class: 'subagent-reason' }, view.reason));
  details.append(body);
  return details;
}

/** The subagents a wait waited for: each one's id, where it stood, and its answer's first line. */
export function waitedView(waited: readonly WaitedAgent[]): HTMLElement {
  return h(
    'ul',
    { class: 'waited', attrs: { 'aria-label': t('Subagents waited for') } },
    ...waited.map((agent) => {
      const state = WAITED[agent.state];
      return h(
        'li',
        { class: `waited-agent state-${agent.state}`, attrs: { title: agent.line ?? state.label } },
        icon(state.icon),
        h('span', { class: 'waited-id' }, agent.id),
        h('span', { class: 'waited-state' }, state.label),
        agent.line !== undefined && h('span', { class: 'waited-line' }, agent.line),
      );
    }),
  );
}
