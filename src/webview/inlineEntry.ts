import type { InlineEntry, ToolEntry } from '../protocol/chatView';
import { type Post, diffView } from './diffView';
import { h } from './dom';
import { t } from './l10n';
import { renderMarkdown } from './markdown';

// An inline edit done in the editor beside this chat (Ctrl+I, the light bulb's Fix with Loopwire): one short
// line, folded — "Fixed inline in src/cart.js:12" and how it ended — that opens on what was asked, the diff
// the model wrote and what it said. The path opens the file at that line. Its hunks have no review here:
// the edit was kept or undone in the editor already (or left in the file, pending, when the window closed).

const OUTCOME_ICONS: Record<InlineEntry['outcome'], string> = {
  kept: 'check',
  undone: 'discard',
  partly: 'check',
  stopped: 'circle-slash',
  failed: 'error',
  unchanged: 'circle-slash',
  pending: 'clock',
};

/** How it ended, when in full. */
const OUTCOME_WORDS: Record<InlineEntry['outcome'], string> = {
  kept: t('kept'),
  undone: t('undone'),
  partly: t('partly kept'),
  stopped: t('stopped'),
  failed: t('failed'),
  unchanged: t('no change'),
  pending: t('left pending, unsaved'),
};

/**
 * How it ended, in a word or three: "kept", "1 of 2 kept", "no change"; a fix the window closed on before
 * Keep or Undo, whether its lines were saved in the file then.
 */
export function outcomeLabel(entry: Pick<InlineEntry, 'outcome' | 'kept' | 'diff' | 'saved'>): string {
  const hunks = entry.diff.reduce((sum, file) => sum + file.hunks.length, 0);
  if (entry.outcome === 'partly') return t('{0} of {1} kept', entry.kept, hunks);
  if (entry.outcome === 'pending' && entry.saved === true) return t('left pending, saved');
  return OUTCOME_WORDS[entry.outcome];
}

/** `path:line`, a link that opens the file there (the click does not fold or unfold the card). */
function placeLink(entry: InlineEntry, post: Post): HTMLElement {
  const place = `${entry.path}:${entry.line}`;
  const link = h(
    'a',
    { class: 'path-link', attrs: { href: '#', title: t('Open {0} at line {1}', entry.path, entry.line) } },
    place,
  );
  link.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    post({ type: 'openFile', path: entry.path, line: entry.line });
  });
  return link;
}

/** The title with its `path:line` as the link (the host writes the title ending with it). */
function titleView(entry: InlineEntry, post: Post): HTMLElement {
  const place = `${entry.path}:${entry.line}`;
  const title = h('span', { class: 'inline-title' });
  if (entry.title.endsWith(place)) title.append(entry.title.slice(0, -place.length), placeLink(entry, post));
  else title.append(entry.title, ' ', placeLink(entry, post));
  return title;
}

function markdown(text: string): HTMLElement {
  const body = h('div', { class: 'markdown' });
  body.innerHTML = renderMarkdown(text).trim();
  return body;
}

/**
 * The card's header, one line: a button that opens and folds the card (named by the whole title and outcome),
 * the title with its link, and the outcome. A click anywhere on it but the link does what the button does.
 * (Not a <details>: its <summary> may hold no link, and the link is what opens the file.)
 */
function headerView(entry: InlineEntry, outcome: string, body: HTMLElement, post: Post): HTMLElement {
  const card = h('div', { class: `inline-card outcome-${entry.outcome}` });
  const toggle = h(
    'button',
    {
      class: 'inline-toggle',
      attrs: {
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': body.id,
        'aria-label': `${entry.title}, ${outcome}`,
      },
    },
    h('span', { class: 'codicon codicon-chevron-right', attrs: { 'aria-hidden': 'true' } }),
  );
  const flip = () => {
    body.hidden = !body.hidden;
    toggle.setAttribute('aria-expanded', String(!body.hidden));
    card.classList.toggle('open', !body.hidden);
  };
  toggle.addEventListener('click', (event) => {
    event.stopPropagation();
    flip();
  });
  const header = h(
    'div',
    { class: 'inline-header' },
    toggle,
    h('span', { class: 'codicon codicon-sparkle', attrs: { 'aria-hidden': 'true' } }),
    titleView(entry, post),
    h(
      'span',
      { class: 'inline-outcome' },
      h('span', { class: `codicon codicon-${OUTCOME_ICONS[entry.outcome]}`, attrs: { 'aria-hidden': 'true' } }),
      outcome,
    ),
  );
  header.addEventListener('click', flip);
  card.append(header, body);
  return card;
}

export function inlineEntryView(entry: InlineEntry, post: Post): HTMLElement {
  // The diff's card: drawn as a finished edit's, with no review (no states, so no Accept / Reject).
  const card: ToolEntry = { kind: 'tool', id: entry.id, turn: 0, name: 'inline', summary: entry.title, status: 'done' };
  const body = h(
    'div',
    { class: 'inline-body', attrs: { id: `inline-body-${entry.id}` } },
    h('div', { class: 'inline-label' }, entry.action === 'fix' ? t('Problem') : t('Asked')),
    h('div', { class: 'inline-prompt' }, entry.prompt),
    entry.diff.length > 0 ? diffView(card, entry.diff, post) : undefined,
    entry.note === '' ? undefined : h('div', { class: 'inline-label' }, t('Loopwire said')),
    entry.note === '' ? undefined : markdown(entry.note),
  );
  body.hidden = true;
  return h(
    'div',
    { class: 'entry inline', attrs: { 'data-id': entry.id } },
    headerView(entry, outcomeLabel(entry), body, post),
  );
}
