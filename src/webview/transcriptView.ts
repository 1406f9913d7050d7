import type { BackendInfo, ChatEntry } from '../protocol/chatView';
import { button, h } from './dom';
import { welcomeView } from './welcome';
import { t } from './l10n';

// The conversation as the page shows it: a window of the newest entries (older ones leave the DOM and come
// back with "Show earlier"), then a "Working…" row while the agent runs with nothing else visibly moving,
// then the prompts queued behind the running task. An empty chat shows the welcome instead.
//
// The host sends many changes a frame while a task runs (fifty fast reads, a live diff): they are kept and
// put into the page together, once per animation frame, with one look at the scroll position before and one
// scroll after. Applied one by one, each would lay the whole conversation out twice.

/** Entries kept in the page; older ones leave the DOM and come back with "Show earlier". */
const MAX_SHOWN = 200;
/** Frames a conversation put in whole may take to find its end (see settleAtEnd). */
const SETTLE_FRAMES = 10;

interface Shown {
  entry: ChatEntry;
  element: HTMLElement;
}

export interface TranscriptHooks {
  render(entry: ChatEntry): HTMLElement;
  loadOlder(before: string): void;
  /** An example prompt of the welcome was chosen. */
  example(prompt: string): void;
  /** An entry shown changed (for the screen reader's announcements). */
  changed(before: ChatEntry, after: ChatEntry): void;
  /** New entries went into the page (the host is told how many it shows). */
  added(): void;
}

const isQueued = (entry: ChatEntry) => entry.kind === 'user' && entry.queued === true;

/**
 * Whether the entry shows by itself that something happens (text streaming in, a call being written or
 * run), or that the agent waits for the user (an approval): either way no "Working…" row is needed.
 */
function showsProgress(entry: ChatEntry): boolean {
  switch (entry.kind) {
    case 'assistant':
    case 'thinking':
      return entry.streaming && entry.text !== '';
    case 'tool':
      return entry.status === 'streaming' || entry.status === 'running' || entry.status === 'approval';
    default:
      return false;
  }
}

export class TranscriptView {
  readonly element = h('div', { class: 'transcript', attrs: { role: 'log', 'aria-label': t('Conversation') } });
  private readonly shown = new Map<string, Shown>();
  /** Ids in the page's order: the conversation, and the prompts queued after it. */
  private order: string[] = [];
  private queued: string[] = [];
  private hasOlder = false;
  private running = false;
  private backend: BackendInfo | undefined;
  private welcome: HTMLElement | undefined;
  /** Text grown in entries shown, re-rendered at the next frame. */
  private readonly dirty = new Set<string>();
  /** New and changed entries, put into the page at the next frame (the newest of each). */
  private readonly pending = new Map<string, ChatEntry>();
  private frame = 0;
  /** Where the page last scrolled to the end (undefined: it never did, or the conversation was replaced). */
  private pinnedAt: number | undefined;
  /** Whether the reader was at the end when the conversation last scrolled. */
  private atEnd = true;
  private readonly olderButton: HTMLButtonElement;
  private readonly working = h(
    'div',
    { class: 'working', attrs: { role: 'status' } },
    h('span', { class: 'codicon codicon-loading codicon-modifier-spin', attrs: { 'aria-hidden': 'true' } }),
    h('span', {}, t('Working…')),
  );

  constructor(private readonly hooks: TranscriptHooks) {
    this.olderButton = button(
      t('Show earlier messages'),
      () => {
        const first = this.order[0];
        if (first !== undefined) hooks.loadOlder(first);
      },
      { icon: 'fold-up' },
    );
    this.olderButton.classList.add('older');
    // What shows above or below the conversation (the past chats, queued prompts, the plan, a chip) takes its
    // room from it, and a box that shrinks keeps its scrollTop: a reader at the end would see the end slide out
    // of view, the buttons of a card waiting for Apply behind the chips. Whether the reader was at the end is
    // known from the last scroll (a shrink scrolls nothing; a card that got shorter moved the scroll to the
    // new end itself); shrunk, the box finds the end again.
    this.element.addEventListener('scroll', () => (this.atEnd = this.nearBottom()), { passive: true });
    let height = 0;
    new ResizeObserver(() => {
      const shrunk = this.element.clientHeight < height;
      height = this.element.clientHeight;
      if (shrunk && this.atEnd) this.scrollToEnd();
    }).observe(this.element);
  }

  /** How many entries the page shows. */
  get size(): number {
    return this.shown.size;
  }

  /** Everything from scratch (a `state`); `backend`, when given, is kept for the welcome of later chats. */
  reset(entries: readonly ChatEntry[], older: boolean, backend: BackendInfo | undefined): void {
    if (backend) this.backend = backend;
    this.shown.clear();
    this.order = [];
    this.queued = [];
    this.dirty.clear();
    this.pending.clear();
    this.hasOlder = false;
    this.welcome = undefined;
    this.element.replaceChildren();
    for (const entry of entries) if (!isQueued(entry)) this.add(entry, true);
    for (const entry of entries) if (isQueued(entry)) this.add(entry, true);
    this.setOlder(older || this.hasOlder);
    this.update();
    this.scrollToEnd();
    this.settleAtEnd(SETTLE_FRAMES);
  }

  /**
   * A conversation put in whole opens at its end, but its entries take their real height only as they are
   * laid out near the view (the ones above were guessed): for a few frames, while the reader has not
   * scrolled and the height still changes, the end is found again.
   */
  private settleAtEnd(frames: number): void {
    const height = this.element.scrollHeight;
    requestAnimationFrame(() => {
      if (this.pinnedAt === undefined || Math.abs(this.element.scrollTop - this.pinnedAt) >= 2) return;
      if (this.element.scrollHeight === height && frames < SETTLE_FRAMES) return;
      this.scrollToEnd();
      if (frames > 1) this.settleAtEnd(frames - 1);
    });
  }

  /** A new or changed entry, shown at the next frame. */
  upsert(entry: ChatEntry): void {
    this.pending.set(entry.id, entry);
    this.schedule();
  }

  /** Streamed text is re-rendered once per frame, and only the entries that grew: never the whole transcript. */
  appendText(id: string, delta: string): void {
    const waiting = this.pending.get(id);
    if (waiting?.kind === 'assistant' || waiting?.kind === 'thinking') {
      this.pending.set(id, { ...waiting, text: waiting.text + delta });
      return;
    }
    const current = this.shown.get(id);
    if (current?.entry.kind !== 'assistant' && current?.entry.kind !== 'thinking') return;
    const first = current.entry.text === '';
    current.entry = { ...current.entry, text: current.entry.text + delta };
    this.dirty.add(id);
    this.schedule();
    // The first words of an answer are what the "Working…" row waited for.
    if (first) this.update();
  }

  prependOlder(entries: readonly ChatEntry[], older: boolean): void {
    const anchor = this.element.scrollHeight - this.element.scrollTop;
    const added = entries
      .filter((entry) => !this.shown.has(entry.id) && !isQueued(entry))
      .map((entry) => {
        const element = this.hooks.render(entry);
        this.shown.set(entry.id, { entry, element });
        return { id: entry.id, element };
      });
    this.order = [...added.map((e) => e.id), ...this.order];
    this.olderButton.after(...added.map((e) => e.element));
    this.setOlder(older);
    this.update();
    this.element.scrollTop = this.element.scrollHeight - anchor;
  }

  setRunning(value: boolean): void {
    this.running = value;
    this.update();
  }

  /**
   * Whether the reader follows the end: the scroll is where the page last put it (entries below may have
   * grown since: off-screen ones are laid out only as they come near), or near the end.
   */
  private nearBottom(): boolean {
    const top = this.element.scrollTop;
    if (this.pinnedAt !== undefined && Math.abs(top - this.pinnedAt) < 2) return true;
    return this.element.scrollHeight - top - this.element.clientHeight < 48;
  }

  private keepBottom(update: (stick: boolean) => void): void {
    const stick = this.nearBottom();
    update(stick);
    if (!stick) return;
    this.scrollToEnd();
    // What was just put in was measured at its placeholder height (content-visibility): once this frame has
    // laid it out for real, the end is found again (a card that grew to ask for Apply shows its buttons).
    this.settleAtEnd(2);
  }

  /** The reader sent a prompt: the conversation goes to its end and follows it, wherever they had scrolled. */
  followEnd(): void {
    this.scrollToEnd();
    this.atEnd = true;
  }

  private scrollToEnd(): void {
    this.element.scrollTop = this.element.scrollHeight;
    this.pinnedAt = this.element.scrollTop;
  }

  private setOlder(value: boolean): void {
    this.hasOlder = value;
    if (value && !this.olderButton.isConnected) this.element.prepend(this.olderButton);
    if (!value) this.olderButton.remove();
  }

  /** The first element after the conversation: the working row, else the first queued prompt. */
  private tail(): HTMLElement | null {
    if (this.working.isConnected) return this.working;
    const first = this.queued[0];
    return first === undefined ? null : (this.shown.get(first)?.element ?? null);
  }

  private add(entry: ChatEntry, trim = this.nearBottom()): void {
    const element = this.hooks.render(entry);
    this.shown.set(entry.id, { entry, element });
    if (isQueued(entry)) {
      this.queued.push(entry.id);
      this.element.append(element);
      return;
    }
    this.element.insertBefore(element, this.tail());
    this.order.push(entry.id);
    // Trimmed only while the reader follows the end: pages they scrolled up to and loaded stay.
    while (trim && this.order.length > MAX_SHOWN) {
      const oldest = this.order.shift() as string;
      this.shown.get(oldest)?.element.remove();
      this.shown.delete(oldest);
      this.setOlder(true);
    }
  }

  private remove(id: string): void {
    this.shown.get(id)?.element.remove();
    this.shown.delete(id);
    this.dirty.delete(id);
    this.order = this.order.filter((other) => other !== id);
    this.queued = this.queued.filter((other) => other !== id);
  }

  /**
   * The rows that depend on the whole: the welcome of an empty chat, the "Working…" row. `follow: false`
   * inside a flush, which keeps the bottom itself.
   */
  private update(follow = true): void {
    const empty = this.shown.size === 0 && !this.hasOlder;
    if (empty && !this.welcome) {
      this.welcome = welcomeView(this.backend, (prompt) => this.hooks.example(prompt));
      this.element.append(this.welcome);
    } else if (!empty && this.welcome) {
      this.welcome.remove();
      this.welcome = undefined;
    }
    let working = this.running;
    for (const { entry } of working ? this.shown.values() : [])
      if (showsProgress(entry)) {
        working = false;
        break;
      }
    if (working === this.working.isConnected) return;
    const place = () => {
      if (!working) return this.working.remove();
      const first = this.queued[0];
      this.element.insertBefore(this.working, first === undefined ? null : (this.shown.get(first)?.element ?? null));
    };
    if (follow) this.keepBottom(place);
    else place();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.flush());
  }

  /** This frame's changes, put into the page between one read of the scroll position and one scroll. */
  private flush(): void {
    this.frame = 0;
    let added = false;
    this.keepBottom((stick) => {
      for (const entry of this.pending.values()) added = this.apply(entry, stick) || added;
      this.pending.clear();
      for (const id of this.dirty) {
        const current = this.shown.get(id);
        if (!current) continue;
        const element = this.hooks.render(current.entry);
        // A Thinking section the user opened stays open while it grows.
        if (current.element instanceof HTMLDetailsElement && element instanceof HTMLDetailsElement)
          element.open = current.element.open;
        current.element.replaceWith(element);
        current.element = element;
      }
      this.dirty.clear();
      this.update(false);
    });
    if (added) this.hooks.added();
  }

  /** One entry into the page; true when it is new. `trim`: the reader follows the end. */
  private apply(entry: ChatEntry, trim: boolean): boolean {
    const current = this.shown.get(entry.id);
    if (!current) {
      this.add(entry, trim);
      return true;
    }
    if (isQueued(current.entry) !== isQueued(entry)) {
      // A queued prompt whose turn came (or the reverse): it moves to its place.
      this.remove(entry.id);
      this.add(entry, trim);
    } else {
      const element = this.hooks.render(entry);
      current.element.replaceWith(element);
      this.shown.set(entry.id, { entry, element });
      this.dirty.delete(entry.id);
    }
    this.hooks.changed(current.entry, entry);
    return false;
  }
}
