import './zodJitless';
import {
  type Banner,
  type ChatEntry,
  type ContextMeter,
  HostMessage,
  type SessionSummary,
  type ViewMessage,
} from '../protocol/chatView';
import type { QueuedPrompt } from '../protocol/promptQueue';
import { METER_FULL_AT, METER_WARN_AT, meterLine, meterText } from '../protocol/contextMeter';
import { AttachmentChips } from './attachmentChips';
import { acceptDrops } from './composerDrop';
import { ComposerPickers } from './composerPickers';
import { ContextPicker } from './contextPicker';
import { SlashMenu } from './slashMenu';
import { askResend } from './checkpointActions';
import { button, h } from './dom';
import { entryView } from './entryView';
import { ImageIntake } from './imageIntake';
import { ImageModelWarning } from './imageWarning';
import { InstructionsLine } from './instructionsLine';
import { t } from './l10n';
import { QueueChips } from './queueChips';
import { fitPrompt, unfitPrompt } from './promptFit';
import { CommandList } from './commandList';
import { ChatList } from './chatList';
import { PlanDock } from './planDock';
import { HandoffBar } from './handoffBar';
import { TranscriptView } from './transcriptView';
import { WorktreeCards, WorktreeToggle } from './worktreeCard';

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

let sessionId = '';
let running = false;

const saved = vscode.getState() as { draft?: unknown; attachments?: unknown } | undefined;
const savedDraft = saved?.draft;
const prompt = h('textarea', {
  class: 'prompt',
  attrs: {
    rows: '3',
    placeholder: t('Ask Loopwire — Enter to send, Shift+Enter for a new line'),
    'aria-label': t('Ask Loopwire'),
  },
});
prompt.value = typeof savedDraft === 'string' ? savedDraft : '';
// The chips are kept with the draft: a hidden and re-shown panel has both.
const imageWarning = new ImageModelWarning();
const chips = new AttachmentChips((attachments) => {
  imageWarning.chips(attachments);
  saveDraft();
});
if (Array.isArray(saved?.attachments)) chips.add(saved.attachments);
const contextPicker = new ContextPicker(prompt, post, (attachments) => chips.add(attachments));
const slashMenu = new SlashMenu(prompt, post);
const images = new ImageIntake(
  (attachments) => chips.add(attachments),
  () => chips.attachments.filter((attachment) => attachment.kind === 'image').length,
);
images.listen(prompt);
function saveDraft(): void {
  const attachments = chips.attachments;
  vscode.setState(attachments.length > 0 ? { draft: prompt.value, attachments } : { draft: prompt.value });
}
const transcript = new TranscriptView({
  render: (entry) => entryView(entry, post),
  loadOlder: (before) => post({ type: 'loadOlder', before }),
  example: (text) => {
    prompt.value = text;
    saveDraft();
    prompt.focus();
  },
  changed: (before, after) => announce(before, after),
  added: () => reportShown(),
});
const bannerArea = h('div', { class: 'banner-area', attrs: { role: 'status' } });
const announcer = h('div', { class: 'visually-hidden', attrs: { 'aria-live': 'polite' } });
const history = h('div', { class: 'history hidden', attrs: { role: 'dialog', 'aria-label': t('Past chats') } });
const historyButton = button(t('History'), () => toggleHistory(), { icon: 'history' });
const stopButton = button(t('Stop'), () => post({ type: 'stop' }), { icon: 'debug-stop' });
const sendButton = button(t('Send'), () => submit(), { icon: 'send', kind: 'primary' });
const pickers = new ComposerPickers(post);
const queueChips = new QueueChips(post);
const instructionsLine = new InstructionsLine(post);
const planDock = new PlanDock(post);
const handoffBar = new HandoffBar(post);
const commandList = new CommandList(post);
const chatList = new ChatList(post);
const worktreeCards = new WorktreeCards(post);
const worktreeToggle = new WorktreeToggle();
// The figures are read out from the meter element (its aria-valuetext), not from the short label beside it.
const meterLabel = h('span', { class: 'context-meter-text', attrs: { 'aria-hidden': 'true' } });
const meterBar = h('meter', {
  class: 'context-meter-bar',
  attrs: { min: '0', optimum: '0', 'aria-label': t('Context') },
});
const meter = h('div', { class: 'context-meter hidden' }, meterLabel, meterBar);
const toolbar = h(
  'div',
  { class: 'toolbar', attrs: { role: 'toolbar', 'aria-label': t('Chat') } },
  historyButton,
  stopButton,
  meter,
);

// Landmarks and a heading, for a screen reader's quick navigation: the toolbar and what it shows above the
// conversation are the banner, the conversation and the composer the main part. The heading is the page's
// title, the product's name. `.landmark` is `display: contents` (chat.css): the body's column stays as it was.
const heading = h('h1', { class: 'visually-hidden' }, document.title);
document.body.append(
  h('header', { class: 'landmark' }, heading, toolbar, chatList.element, bannerArea, history),
  h(
    'main',
    { class: 'landmark' },
    transcript.element,
    handoffBar.element,
    commandList.element,
    worktreeCards.element,
    planDock.element,
    instructionsLine.element,
    queueChips.element,
    h(
      'div',
      { class: 'composer' },
      contextPicker.element,
      slashMenu.element,
      chips.element,
      images.notice,
      imageWarning.element,
      prompt,
      h('div', { class: 'composer-bar' }, pickers.element, worktreeToggle.element, sendButton),
    ),
    announcer,
  ),
);

/** How a call's end is read out. */
const ENDED = { done: t('done'), failed: t('failed'), declined: t('declined') };

/** Says politely what finished: an answer once complete, a tool call once it ends or waits for the user. */
function announce(before: ChatEntry, after: ChatEntry): void {
  if (after.kind === 'assistant' && before.kind === 'assistant' && before.streaming && !after.streaming)
    announcer.textContent = after.text.slice(0, 500);
  else if (after.kind === 'tool' && before.kind === 'tool' && before.status !== after.status) {
    if (after.status === 'approval')
      announcer.textContent = after.ask
        ? t('Waiting for you: {0}', after.ask.action.replace(/`/g, ''))
        : t('{0} {1} is waiting for Apply or Skip', after.name, after.summary);
    else if (after.status === 'done' || after.status === 'failed' || after.status === 'declined')
      announcer.textContent = `${after.name} ${after.summary}: ${ENDED[after.status]}`;
  }
}

function reportShown(): void {
  post({ type: 'shown', entries: transcript.size, sessionId });
}

/**
 * The token meter in the header: `38k / 272k`, the exact figures in its tooltip, and a thin bar that turns to
 * the warning colour past the default compaction threshold (80 %) and to the error colour near the window.
 */
function showContext(context: ContextMeter | undefined): void {
  meter.classList.toggle('hidden', context === undefined);
  if (!context) return;
  const share = context.tokens / context.window;
  const line = meterLine(context, (tokens, window, percent) =>
    t('Context: {0} of {1} tokens ({2}%)', tokens, window, percent),
  );
  meterLabel.textContent = meterText(context);
  meter.title = line;
  meterBar.setAttribute('aria-valuetext', line);
  meter.classList.toggle('warn', share >= METER_WARN_AT && share < METER_FULL_AT);
  meter.classList.toggle('full', share >= METER_FULL_AT);
  meterBar.max = context.window;
  meterBar.low = Math.floor(context.window * METER_WARN_AT);
  meterBar.high = Math.floor(context.window * METER_FULL_AT);
  meterBar.value = Math.min(context.tokens, context.window);
}

function setRunning(value: boolean): void {
  running = value;
  stopButton.disabled = !value;
  document.body.classList.toggle('running', value);
  transcript.setRunning(value);
}

const BANNER_ICONS: Record<Banner['kind'], string> = {
  reconnecting: 'sync',
  fallback: 'sync',
  failed: 'warning',
  interrupted: 'debug-pause',
  limit: 'debug-pause',
};

function showBanner(banner: Banner | null): void {
  bannerArea.replaceChildren();
  if (!banner) return;
  // A task the window's reload cut short goes on from its transcript: Resume, not Retry; one stopped at a
  // limit of its own goes on if the user says so: Continue.
  const resume = banner.kind === 'interrupted';
  const label = resume ? t('Resume') : banner.kind === 'limit' ? t('Continue') : t('Retry');
  bannerArea.append(
    h(
      'div',
      { class: `banner ${banner.kind}` },
      h('span', { class: `codicon codicon-${BANNER_ICONS[banner.kind]}`, attrs: { 'aria-hidden': 'true' } }),
      h('span', { class: 'banner-text' }, banner.text),
      banner.retry
        ? button(label, () => post({ type: 'retry' }), {
            icon: resume || banner.kind === 'limit' ? 'debug-continue' : 'refresh',
          })
        : undefined,
    ),
  );
}

function toggleHistory(): void {
  if (history.classList.contains('hidden')) post({ type: 'history' });
  else history.classList.add('hidden');
}

function showHistory(sessions: readonly SessionSummary[]): void {
  history.replaceChildren(
    h('div', { class: 'history-title' }, t('Past chats')),
    sessions.length === 0
      ? h('div', { class: 'history-empty' }, t('No past chats in this workspace yet.'))
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
                  // The button goes with the list: the focus goes where the user types next, not to nothing.
                  prompt.focus();
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

/** Stop gave queued prompts back: their text after what is typed, their attachments as chips. Nothing is lost. */
function takeBack(items: readonly QueuedPrompt[]): void {
  const draft = prompt.value.trimEnd();
  prompt.value = [draft, ...items.map((item) => item.text)].filter((text) => text !== '').join('\n\n');
  for (const item of items) if (item.attachments) chips.add(item.attachments);
  saveDraft();
  prompt.focus();
  // All of it in view, the caret where the user was typing: at the end of their own draft.
  fitPrompt(prompt, draft.length);
}

function submit(): void {
  const text = prompt.value.trim();
  const attachments = chips.attachments;
  // An image alone is a prompt (a screenshot pasted, then Enter); chips of files alone are not.
  if (text === '' && !attachments.some((attachment) => attachment.kind === 'image')) return;
  // "In a new worktree": the words go to New Chat in Worktree (the chips stay for this chat's next prompt).
  const inWorktree = worktreeToggle.on && text !== '';
  if (inWorktree) post({ type: 'sendInWorktree', text });
  else post({ type: 'send', text, ...(attachments.length > 0 ? { attachments: [...attachments] } : {}) });
  worktreeToggle.set(false);
  prompt.value = '';
  unfitPrompt(prompt);
  // The answer to it comes at the end: the reader goes there, as in any chat, even from a card far above.
  transcript.followEnd();
  if (!inWorktree) chips.clear();
  images.clear();
  saveDraft();
}

prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    submit();
  }
});
prompt.addEventListener('input', saveDraft);
acceptDrops(document.body, post, (files) => void images.take(files));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !history.classList.contains('hidden')) closeHistory();
  else if (event.key === 'Escape' && running) post({ type: 'stop' });
});

/** Closes the past chats; a keyboard user inside them goes back to History rather than to nowhere. */
function closeHistory(): void {
  const hadFocus = history.contains(document.activeElement);
  history.classList.add('hidden');
  if (hadFocus) historyButton.focus();
}

// The host's messages, by what they change: the conversation, the composer, the lists around them. The three
// together must answer every kind (the type below says so), so a new kind fails the typecheck until placed.
type HostHandlers = { [K in HostMessage['type']]: (message: Extract<HostMessage, { type: K }>) => void };

/** The transcript and what stands over it: the state, entries and their text, running, banner, meter, plan. */
const conversationMessages = {
  state: (message) => {
    sessionId = message.sessionId;
    transcript.reset(message.entries, message.hasOlder, message.backend);
    setRunning(message.running);
    showBanner(message.banner);
    showContext(message.context);
    planDock.show(message.plan, message.implement);
    handoffBar.show([]);
    reportShown();
  },
  entry: (message) => transcript.upsert(message.entry),
  text: (message) => transcript.appendText(message.id, message.delta),
  running: (message) => setRunning(message.running),
  banner: (message) => showBanner(message.banner),
  context: (message) => showContext(message.context),
  plan: (message) => planDock.show(message.plan, message.implement),
  handoffs: (message) => handoffBar.show(message.handoffs),
  older: (message) => transcript.prependOlder(message.entries, message.hasOlder),
} satisfies Partial<HostHandlers>;

/** The composer: the prompt, its chips, pickers and menus, the instructions line and the queue. */
const composerMessages = {
  focus: (message) => {
    if (message.text !== undefined) prompt.value = message.text;
    prompt.focus();
  },
  choices: (message) => {
    imageWarning.choices(message.choices);
    pickers.show(message.choices);
  },
  instructions: (message) => instructionsLine.show(message.instructions),
  contextMatches: (message) => contextPicker.showMatches(message.query, message.matches),
  slashCommands: (message) => slashMenu.show(message.commands),
  attach: (message) => {
    chips.add(message.attachments);
    prompt.focus();
  },
  imageFiles: (message) => void images.takeRead(message.files).then(() => prompt.focus()),
  queue: (message) => queueChips.show(message.items),
  unqueued: (message) => takeBack(message.items),
} satisfies Partial<HostHandlers>;

/** What stands around both: past chats, the resend question, background commands, the open chats. */
const aroundMessages = {
  history: (message) => showHistory(message.sessions),
  resendAsk: (message) => askResend(message, post),
  commands: (message) => commandList.show(message.commands),
  chats: (message) => chatList.show(message.chats, message.shown),
  worktrees: (message) => worktreeCards.show(message.worktrees, message.busy),
} satisfies Partial<HostHandlers>;

const hostHandlers: HostHandlers = { ...conversationMessages, ...composerMessages, ...aroundMessages };

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostMessage.safeParse(event.data);
  if (!parsed.success) {
    console.warn('Loopwire: ignored a malformed message from the host', parsed.error.issues[0]);
    return;
  }
  // TypeScript cannot tie the handler looked up by `type` to the message of that type; the map's type does.
  const handle = hostHandlers[parsed.data.type] as (message: HostMessage) => void;
  handle(parsed.data);
});

setRunning(false);
post({ type: 'ready' });
// The commands running in the background: listed now and at each change, a reloaded page's included.
post({ type: 'watchCommands' });
post({ type: 'watchWorktrees' });
