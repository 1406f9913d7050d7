import type { ApprovalAsk, ToolEntry, ToolStatus } from '../protocol/chatView';
import { type Post, diffView } from './diffView';
import { cardClock } from './commandClock';
import { button, formatDuration, h } from './dom';
import { type PathLink, findPathLinks, summaryLinks } from './pathLinks';
import { t } from './l10n';
import { hookLineView } from './hookLine';
import { subagentView, waitedView } from './subagentCard';

// A tool call's card: name, what it is about, live status, duration, what an approval asks (with Allow,
// Allow for this chat, Skip), the diff of an edit with its review, and the collapsible output, where
// workspace paths open the file.

const STATUS: Record<ToolStatus, { icon: string; label: string }> = {
  streaming: { icon: 'loading codicon-modifier-spin', label: t('writing') },
  approval: { icon: 'question', label: t('waiting for you') },
  running: { icon: 'loading codicon-modifier-spin', label: t('running') },
  done: { icon: 'check', label: t('done') },
  failed: { icon: 'error', label: t('failed') },
  declined: { icon: 'circle-slash', label: t('skipped') },
};

/** A link that opens a workspace file (at a line) in the editor: the host does it, on `openFile`. */
function pathLink(text: string, target: { path: string; line?: number; column?: number }, post: Post): HTMLElement {
  const title =
    target.line === undefined ? t('Open {0}', target.path) : t('Open {0} at line {1}', target.path, target.line);
  const link = h('a', { class: 'path-link', attrs: { href: '#', title } }, text);
  link.addEventListener('click', (event) => {
    // Ours alone: VS Code's webview host would otherwise treat the `#` as a jump to the top.
    event.preventDefault();
    event.stopPropagation();
    post({ type: 'openFile', ...target });
  });
  return link;
}

/** Text with its workspace paths as links; everything else as text nodes. */
export function linkedText(text: string, post: Post): (Node | string)[] {
  return linkedParts(text, findPathLinks(text), post);
}

/** Text with `links` (in order, not overlapping) as links; everything else as text nodes. */
function linkedParts(text: string, links: readonly PathLink[], post: Post): (Node | string)[] {
  const parts: (Node | string)[] = [];
  let at = 0;
  for (const link of links) {
    if (link.start > at) parts.push(text.slice(at, link.start));
    const { start, end, ...target } = link;
    parts.push(pathLink(text.slice(start, end), target, post));
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** The summary; once the call is written, each path of it the host sent opens that file. */
function summaryView(entry: ToolEntry, post: Post): HTMLElement {
  // No tooltip of its own: the header's says all of it, name and status included.
  const summary = h('span', { class: 'tool-summary' });
  const links = entry.status === 'streaming' ? [] : summaryLinks(entry.summary, entry.paths ?? []);
  summary.append(...linkedParts(entry.summary, links, post));
  return summary;
}

/** The action's words: backtick code spans as <code>, nothing else read as markdown. */
function actionText(action: string): (Node | string)[] {
  return action.split(/(`[^`]+`)/).flatMap((part): (Node | string)[] => {
    if (part === '') return [];
    return part.length > 2 && part.startsWith('`') && part.endsWith('`') ? [h('code', {}, part.slice(1, -1))] : [part];
  });
}

const ALLOW_LABEL: Record<ApprovalAsk['effect'], string> = { task: t('Run'), write: t('Apply') };
const ALLOW_CHAT_LABEL: Record<ApprovalAsk['effect'], string> = {
  task: t('Allow tasks for this chat'),
  write: t('Allow edits for this chat'),
};

function actionButton(
  action: 'allow' | 'allow-chat' | 'allow-always' | 'skip',
  element: HTMLButtonElement,
): HTMLButtonElement {
  element.dataset.action = action;
  return element;
}

/**
 * What the call will do and the buttons to let it: Allow, Allow for this chat (when it says), Always allow the
 * command's rule in this workspace (when it has one), Skip. A command the model asks to run outside the
 * sandbox reads Allow once / Always allow its rule / Decline, with the model's reason apart from what runs:
 * "for this chat" never lets a command leave the sandbox.
 */
function approvalView(entry: ToolEntry, post: Post): HTMLElement {
  const { ask } = entry;
  const callId = entry.id;
  const escalation = ask?.escalation === true;
  const allowLabel = escalation ? t('Allow once') : ask ? ALLOW_LABEL[ask.effect] : t('Apply');
  const buttons = h(
    'div',
    { class: 'approval-buttons' },
    actionButton(
      'allow',
      button(allowLabel, () => post({ type: 'approval', callId, allow: true }), {
        icon: ask?.effect === 'task' ? 'play' : 'check',
        kind: 'primary',
      }),
    ),
    ask && !escalation
      ? actionButton(
          'allow-chat',
          button(ALLOW_CHAT_LABEL[ask.effect], () => post({ type: 'approval', callId, allow: true, forChat: true }), {
            icon: 'check-all',
          }),
        )
      : undefined,
    ask?.rule
      ? actionButton(
          'allow-always',
          button(
            t('Always allow {0} in this workspace', ask.rule),
            () => post({ type: 'approval', callId, allow: true, always: true }),
            { icon: 'shield' },
          ),
        )
      : undefined,
    actionButton(
      'skip',
      button(escalation ? t('Decline') : t('Skip'), () => post({ type: 'approval', callId, allow: false }), {
        icon: 'close',
      }),
    ),
  );
  return h(
    'div',
    {
      class: 'approval',
      attrs: { role: 'group', 'aria-label': ask ? ask.action.replace(/`/g, '') : t('Approve this call') },
    },
    ask ? h('div', { class: 'approval-action' }, ...actionText(ask.action)) : undefined,
    ask?.detail ? h('pre', { class: 'approval-detail' }, h('code', {}, ask.detail)) : undefined,
    // The model's words, as text: marked as its own, never read as markup.
    ask?.reason
      ? h('div', { class: 'approval-action approval-reason' }, t('The model says: {0}', ask.reason))
      : undefined,
    buttons,
  );
}

/** The status's word; for a command that ran on in the background, how it ended. */
function statusLabel(entry: ToolEntry): string {
  const { exit } = entry;
  if (!exit) return STATUS[entry.status].label;
  if (exit.timedOut) return t('timed out');
  return exit.code === null ? t('stopped') : t('exit code {0}', exit.code);
}

/** The whole header in words, for its tooltip: a narrow panel cuts the summary (a running clock is left out). */
function headerTitle(entry: ToolEntry): string {
  const timed = entry.durationMs !== undefined && entry.status !== 'declined' && entry.status !== 'running';
  const time = timed ? ` ${formatDuration(entry.durationMs ?? 0)}` : '';
  return `${entry.name} ${entry.summary} — ${statusLabel(entry)}${time}`;
}

/**
 * How long the call took; for a command still running in the background, its time ticking (commandClock.ts).
 * A call that never ran (skipped, or left waiting at Stop) took no time of its own to show.
 */
function durationView(entry: ToolEntry): HTMLElement | undefined {
  if (entry.status === 'running' && entry.session !== undefined)
    return cardClock(entry.session, h('span', { class: 'tool-duration' }));
  if (entry.durationMs === undefined || entry.status === 'declined') return undefined;
  return h('span', { class: 'tool-duration' }, formatDuration(entry.durationMs));
}

export function toolCard(entry: ToolEntry, post: Post): HTMLElement {
  const status = STATUS[entry.status];
  const card = h(
    'article',
    {
      class: `tool-card status-${entry.status}`,
      attrs: { 'aria-label': `${entry.name} ${entry.summary}, ${statusLabel(entry)}` },
    },
    h(
      'header',
      { class: 'tool-header', attrs: { title: headerTitle(entry) } },
      h('span', { class: `codicon codicon-${status.icon}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'tool-name' }, entry.name),
      summaryView(entry, post),
      // Status and time as one: in a narrow panel they go to the next line together, never apart.
      h('span', { class: 'tool-state' }, h('span', { class: 'tool-status' }, statusLabel(entry)), durationView(entry)),
    ),
  );
  if (entry.hook) card.append(hookLineView(entry.hook));
  if (entry.diff && entry.diff.length > 0) card.append(diffView(entry, entry.diff, post));
  if (entry.status === 'approval') card.append(approvalView(entry, post));
  // While any of the turn's changes is still in the files as the agent made them.
  const standing = entry.diff?.some((file) =>
    Object.values(file.states ?? {}).some((state) => state === 'applied' || state === 'accepted'),
  );
  if (standing)
    card.append(
      h(
        'div',
        { class: 'review-actions' },
        button(t('Undo all of this turn'), () => post({ type: 'undoTurn', turn: entry.turn }), { icon: 'discard' }),
      ),
    );
  // A spawn_agent call's subagent, folded, and a wait's answers in a line each (subagentCard.ts).
  if (entry.subagent) card.append(subagentView(entry.subagent, (call) => toolCard(call, post), post));
  if (entry.waited) card.append(waitedView(entry.waited));
  if (entry.output !== undefined && entry.output !== '') card.append(outputView(entry.output, post));
  return card;
}

/**
 * The call's output, folded. Its paths become links when it is first opened: looking for them in up to 8 KB
 * of text at every draw of every card (a card is drawn again at each change) was a good part of what the page
 * allocated while a task ran, for a section most cards never open. The text itself is there from the start.
 */
function outputView(output: string, post: Post): HTMLElement {
  const pre = h('pre', {}, output);
  const details = h('details', { class: 'tool-output' }, h('summary', {}, t('Output')), pre);
  let linked = false;
  details.addEventListener('toggle', () => {
    if (!details.open || linked) return;
    linked = true;
    pre.replaceChildren(...linkedText(output, post));
  });
  return details;
}
