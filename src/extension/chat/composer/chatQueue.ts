import type { Attachment } from '../../../protocol/attachments';
import type { HostMessage } from '../../../protocol/chatView';
import type { QueueAction, QueuedPrompt } from '../../../protocol/promptQueue';
import type { ChatOutcome } from '../chatPort';

// The prompts typed while a task runs, in the user's hands until their turn: chips above the composer that
// can be edited, removed, moved, steered into the running task or sent now. A queued prompt becomes a steer
// only when the user says so (Steer), never by itself; Stop gives every queued word back to the composer;
// a steer the task ended without delivering runs next, first in line. Nothing typed is lost.

/** What the queue needs of the conversation. */
export interface QueueHost {
  /** Whether a task runs now. */
  busy(): boolean;
  /** Runs `text` as the conversation's next task (its prompt entry added), to its end. */
  run(text: string, attachments: readonly Attachment[]): Promise<ChatOutcome>;
  /** Stops the running task, leaving the queue as it is (Send now). */
  stopTask(): void;
  /** Hands `text` to the running task for its next tool boundary; false where no task can take it now. */
  steer(text: string): boolean;
  send(message: HostMessage): void;
}

interface Waiting extends QueuedPrompt {
  attachments?: Attachment[];
  /** Tells whoever sent the prompt how it went (the API's `chat.ask` waits on it): run, or given back. */
  settle(outcome: ChatOutcome): void;
}

const NOT_RUN: ChatOutcome = { ok: false, status: 'cancelled', text: '' };

export class PromptQueue {
  private items: Waiting[] = [];
  private sequence = 0;

  constructor(private readonly host: QueueHost) {}

  get size(): number {
    return this.items.length;
  }

  /** Queues a prompt sent while a task runs; resolves once it ran (its outcome), or was given back. */
  add(text: string, attachments: readonly Attachment[] = []): Promise<ChatOutcome> {
    return new Promise((settle) => {
      this.items.push({
        id: `queued:${++this.sequence}`,
        text,
        ...(attachments.length > 0 ? { attachments: [...attachments] } : {}),
        settle,
      });
      this.publish();
    });
  }

  /** What the user did to chip `id`; a chip no longer there (it ran meanwhile) is passed over. */
  act(action: QueueAction, id: string, text?: string): void {
    const at = this.items.findIndex((item) => item.id === id && !item.steering);
    const item = this.items[at];
    if (!item) return;
    if (action === 'edit' && text !== undefined && text.trim() !== '') item.text = text.trim();
    else if (action === 'remove') this.take(at).settle(NOT_RUN);
    else if (action === 'up' || action === 'down') this.move(at, action === 'up' ? -1 : 1);
    else if (action === 'steer') this.steer(at);
    else if (action === 'sendNow') this.sendNow(at);
    this.publish();
  }

  /** The running task ended: the first prompt waiting runs now (its chip leaves the queue as it starts). */
  next(): void {
    if (this.host.busy()) return;
    const first = this.items.findIndex((item) => !item.steering);
    const item = this.items[first];
    if (!item) return;
    this.take(first);
    this.publish();
    this.host.run(item.text, item.attachments ?? []).then(
      (outcome) => item.settle(outcome),
      () => item.settle(NOT_RUN),
    );
  }

  /**
   * Stop: every queued prompt (and `steers`, steered but not delivered) goes back to the composer, in
   * order; whoever sent them hears they were not run.
   */
  giveBack(steers: readonly string[] = []): void {
    const waiting = this.items.filter((item) => !item.steering);
    const given: QueuedPrompt[] = [
      ...steers.map((text, i) => ({ id: `steer:${i}`, text })),
      ...waiting.map(({ id, text, attachments }) => ({ id, text, ...(attachments ? { attachments } : {}) })),
    ];
    for (const item of this.items) item.settle(NOT_RUN);
    this.items = [];
    if (given.length > 0) this.host.send({ type: 'unqueued', items: given });
    this.publish();
  }

  /** Steers the task ended without delivering: they run next, first in line, as prompts. */
  requeue(texts: readonly string[]): void {
    if (texts.length === 0 && !this.items.some((item) => item.steering)) return;
    this.items = this.items.filter((item) => !item.steering);
    this.items.unshift(...texts.map((text) => ({ id: `queued:${++this.sequence}`, text, settle: () => undefined })));
    this.publish();
  }

  /** A steer reached the model (the agent's `steered` event): its chip goes. */
  delivered(text: string): void {
    const at = this.items.findIndex((item) => item.steering && item.text === text);
    if (at < 0) return;
    this.take(at).settle({ ok: true, status: 'completed', text: '' });
    this.publish();
  }

  /** Sends the chips as they are (after the page asked for the state). */
  publish(): void {
    const items = this.items.map(({ id, text, attachments, steering }) => ({
      id,
      text,
      ...(attachments ? { attachments } : {}),
      ...(steering ? { steering } : {}),
    }));
    this.host.send({ type: 'queue', items });
  }

  private take(at: number): Waiting {
    const [item] = this.items.splice(at, 1);
    return item as Waiting;
  }

  private move(at: number, by: -1 | 1): void {
    const to = at + by;
    if (to < 0 || to >= this.items.length) return;
    const [item] = this.items.splice(at, 1);
    this.items.splice(to, 0, item as Waiting);
  }

  /** The prompt reaches the running task at its next tool boundary; with no task to take it, it runs next. */
  private steer(at: number): void {
    const item = this.items[at] as Waiting;
    // A steer is text only: a prompt with attachments waits for its own turn (the page offers no Steer for it).
    if (item.attachments && item.attachments.length > 0) return;
    if (!this.host.busy() || !this.host.steer(item.text)) {
      // No task to take it now: it runs next, as a prompt of its own.
      this.items.splice(at, 1);
      this.items.unshift(item);
      this.next();
      return;
    }
    item.steering = true;
  }

  /** Stops the running task; this prompt runs next, the others stay queued behind it. */
  private sendNow(at: number): void {
    const [item] = this.items.splice(at, 1);
    this.items.unshift(item as Waiting);
    if (this.host.busy()) this.host.stopTask();
    else this.next();
  }
}
