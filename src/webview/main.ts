import './zodJitless';
import { type Banner, type ChatEntry, HostMessage, type SessionSummary, type ViewMessage } from '../protocol/chatView';
import { button, h } from './dom';
import { entryView } from './entryView';

// The chat panel. The host holds the conversation; this page shows a window of it and sends back what the
// user does. It starts empty and asks for the state (`ready`), so a hidden and re-shown panel, or a reloaded
// window, shows everything again and joins a stream in progress.

interface VsCodeApi {
  postMessage(message: ViewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: ViewMessage) => vscode.postMessage(message);

/** Entries kept in the page; older ones leave the DOM and come back with "Show earlier". */
const MAX_SHOWN = 200;

interface Shown {
  entry: ChatEntry;
  element: HTMLElement;
}

const shown = new Map<string, Shown>();
let order: string[] = [];
let hasOlder = false;
let running = false;
let sessionId = '';
const dirty = new Set<string>();
let frame = 0;

const savedDraft = (vscode.getState() as { draft?: unknown } | undefined)?.draft;
const prompt = h('textarea', {
  class: 'prompt',
  attrs: {
    rows: '3',
    placeholder: 'Ask Loopwire — Enter to send, Shift+Enter for a new line',
    'aria-label': 'Ask Loopwire',
  },
});
prompt.value = typeof savedDraft === 'string' ? savedDraft : '';
const transcript = h('div', { class: 'transcript', attrs: { role: 'log', 'aria-label': 'Conversation' } });
const olderButton = button('Show earlier messages', () => loadOlder(), { icon: 'fold-up' });
olderButton.classList.add('older');
const bannerArea = h('div', { class: 'banner-area', attrs: { role: 'status' } });
const announcer = h('div', { class: 'visually-hidden', attrs: { 'aria-live': 'polite' } });
const history = h('div', { class: 'history hidden', attrs: { role: 'dialog', 'aria-label': 'Past chats' } });
const stopButton = button('Stop', () => post({ type: 'stop' }), { icon: 'debug-stop' });
const sendButton = button('Send', () => submit(), { icon: 'send', kind: 'primary' });
const toolbar = h(
  'div',
  { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': 'Chat' } },
  button('New chat', () => post({ type: 'newChat' }), { icon: 'add' }),
  button('History', () => toggleHistory(), { icon: 'history' }),
  stopButton,
);

document.body.append(
  toolbar,
  bannerArea,
  history,
  transcript,
  h('div', { class: 'composer' }, prompt, sendButton),
  announcer,
);

function nearBottom(): boolean {
  return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 48;
}

function keepBottom(update: () => void): void {
  const stick = nearBottom();
  update();
  if (stick) transcript.scrollTop = transcript.scrollHeight;
}

function render(entry: ChatEntry): HTMLElement {
  return entryView(entry, post);
}

function setOlder(value: boolean): void {
  hasOlder = value;
  if (value && !olderButton.isConnected) transcript.prepend(olderButton);
  if (!value) olderButton.remove();
}

function resetTranscript(entries: readonly ChatEntry[], older: boolean): void {
  shown.clear();
  order = [];
  dirty.clear();
  transcript.replaceChildren();
  for (const entry of entries) append(entry, true);
  setOlder(older || hasOlder);
  transcript.scrollTop = transcript.scrollHeight;
}

function append(entry: ChatEntry, trim = nearBottom()): void {
  const element = render(entry);
  shown.set(entry.id, { entry, element });
  order.push(entry.id);
  // Trimmed only while the reader follows the end: pages they scrolled up to and loaded stay.
  transcript.append(element);
  while (trim && order.length > MAX_SHOWN) {
    const oldest = order.shift() as string;
    shown.get(oldest)?.element.remove();
    shown.delete(oldest);
    setOlder(true);
  }
}

function upsert(entry: ChatEntry): void {
  const current = shown.get(entry.id);
  if (!current) {
    keepBottom(() => append(entry));
    return;
  }
  keepBottom(() => {
    const element = render(entry);
    current.element.replaceWith(element);
    shown.set(entry.id, { entry, element });
    dirty.delete(entry.id);
  });
  announce(current.entry, entry);
}

/** Says politely what finished: an answer once complete, a tool call once it ends or waits for the user. */
function announce(before: ChatEntry, after: ChatEntry): void {
  if (after.kind === 'assistant' && before.kind === 'assistant' && before.streaming && !after.streaming)
    announcer.textContent = after.text.slice(0, 500);
  else if (after.kind === 'tool' && before.kind === 'tool' && before.status !== after.status) {
    if (after.status === 'approval')
      announcer.textContent = `${after.name} ${after.summary} is waiting for Apply or Skip`;
    else if (after.status === 'done' || after.status === 'failed' || after.status === 'declined')
      announcer.textContent = `${after.name} ${after.summary}: ${after.status}`;
  }
}

/** Streamed text is re-rendered once per frame, and only the entries that grew: never the whole transcript. */
function appendText(id: string, delta: string): void {
  const current = shown.get(id);
  if (current?.entry.kind !== 'assistant' && current?.entry.kind !== 'thinking') return;
  current.entry = { ...current.entry, text: current.entry.text + delta };
  dirty.add(id);
  if (frame === 0) frame = requestAnimationFrame(flush);
}

function flush(): void {
  frame = 0;
  keepBottom(() => {
    for (const id of dirty) {
      const current = shown.get(id);
      if (!current) continue;
      const element = render(current.entry);
      // A Thinking section the user opened stays open while it grows.
      if (current.element instanceof HTMLDetailsElement && element instanceof HTMLDetailsElement)
        element.open = current.element.open;
      current.element.replaceWith(element);
      current.element = element;
    }
    dirty.clear();
  });
}

function reportShown(): void {
  post({ type: 'shown', entries: order.length, sessionId });
}

function loadOlder(): void {
  const first = order[0];
  if (first !== undefined) post({ type: 'loadOlder', before: first });
}

function prependOlder(entries: readonly ChatEntry[], older: boolean): void {
  const anchor = transcript.scrollHeight - transcript.scrollTop;
  const elements = entries
    .filter((entry) => !shown.has(entry.id))
    .map((entry) => {
      const element = render(entry);
      shown.set(entry.id, { entry, element });
      return { id: entry.id, element };
    });
  order = [...elements.map((e) => e.id), ...order];
  olderButton.after(...elements.map((e) => e.element));
  setOlder(older);
  transcript.scrollTop = transcript.scrollHeight - anchor;
}

function setRunning(value: boolean): void {
  running = value;
  stopButton.disabled = !value;
  document.body.classList.toggle('running', value);
}

function showBanner(banner: Banner | null): void {
  bannerArea.replaceChildren();
  if (!banner) return;
  bannerArea.append(
    h(
      'div',
      { class: `banner ${banner.kind}` },
      h('span', {
        class: `codicon codicon-${banner.kind === 'failed' ? 'warning' : 'sync'}`,
        attrs: { 'aria-hidden': 'true' },
      }),
      h('span', { class: 'banner-text' }, banner.text),
      banner.retry ? button('Retry', () => post({ type: 'retry' }), { icon: 'refresh' }) : undefined,
    ),
  );
}

function toggleHistory(): void {
  if (history.classList.contains('hidden')) post({ type: 'history' });
  else history.classList.add('hidden');
}

function showHistory(sessions: readonly SessionSummary[]): void {
  history.replaceChildren(
    h('div', { class: 'history-title' }, 'Past chats'),
    sessions.length === 0
      ? h('div', { class: 'history-empty' }, 'No past chats in this workspace yet.')
      : h(
          'ul',
          {},
          ...sessions.map((session) =>
            h(
              'li',
              {},
              button(
                session.title,
                () => {
                  history.classList.add('hidden');
                  post({ type: 'openSession', id: session.id });
                },
                { kind: 'secondary', title: `${session.title} — ${new Date(session.createdAt).toLocaleString()}` },
              ),
            ),
          ),
        ),
  );
  history.classList.remove('hidden');
  history.querySelector('button')?.focus();
}

function submit(): void {
  const text = prompt.value.trim();
  if (text === '') return;
  post({ type: 'send', text });
  prompt.value = '';
  vscode.setState({ draft: '' });
}

prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
prompt.addEventListener('input', () => vscode.setState({ draft: prompt.value }));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !history.classList.contains('hidden')) history.classList.add('hidden');
  else if (event.key === 'Escape' && running) post({ type: 'stop' });
});

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) {
    console.warn('Loopwire: ignored a malformed message from the host', parsed.error.issues[0]);
    return;
  }
  const message = parsed.data;
  switch (message.type) {
    case 'state':
      hasOlder = false;
      sessionId = message.sessionId;
      resetTranscript(message.entries, message.hasOlder);
      setRunning(message.running);
      showBanner(message.banner);
      return reportShown();
    case 'entry': {
      const known = shown.has(message.entry.id);
      upsert(message.entry);
      if (!known) reportShown();
      return;
    }
    case 'text':
      return appendText(message.id, message.delta);
    case 'running':
      return setRunning(message.running);
    case 'banner':
      return showBanner(message.banner);
    case 'older':
      return prependOlder(message.entries, message.hasOlder);
    case 'history':
      return showHistory(message.sessions);
    case 'focus':
      if (message.text !== undefined) prompt.value = message.text;
      prompt.focus();
      return;
  }
});

setRunning(false);
post({ type: 'ready' });
