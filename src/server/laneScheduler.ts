/** The default lane's key; named lanes use their `stream_id`. */
export const DEFAULT_LANE = '';

/**
 * The lanes of one socket (docs/protocol.md §1.4): requests on a lane run one after another in arrival order,
 * lanes run side by side, at most `maxActive` at once (the rest wait their turn), and at most `maxNamed`
 * distinct named lanes ever (detaching a lane does not free its slot). Fair when the slots are full: a lane
 * whose response ends with more queued goes behind the lanes already waiting (round robin), so a lane that
 * keeps sending cannot take every free slot.
 */
export class LaneScheduler {
  private readonly queues = new Map<string, (() => Promise<void>)[]>();
  private readonly running = new Set<string>();
  private readonly named = new Set<string>();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly maxActive: number,
    private readonly maxNamed: number,
  ) {}

  /** Whether a request may use `lane`: false when it would be one named lane too many. */
  admit(lane: string): boolean {
    if (lane === DEFAULT_LANE || this.named.has(lane)) return true;
    if (this.named.size >= this.maxNamed) return false;
    this.named.add(lane);
    return true;
  }

  /** Queues `task` on `lane`; it starts when the lane is free and an active slot is. */
  push(lane: string, task: () => Promise<void>): void {
    const queue = this.queues.get(lane) ?? [];
    queue.push(task);
    this.queues.set(lane, queue);
    this.pump();
  }

  get idle(): boolean {
    return this.running.size === 0 && [...this.queues.values()].every((queue) => queue.length === 0);
  }

  /** Resolves once nothing runs or waits. */
  whenIdle(): Promise<void> {
    if (this.idle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops every waiting task (the socket closed); running ones finish on their own. */
  clear(): void {
    this.queues.clear();
  }

  private pump(): void {
    for (const [lane, queue] of this.queues) {
      if (this.running.size >= this.maxActive) return;
      if (this.running.has(lane) || queue.length === 0) continue;
      const task = queue.shift() as () => Promise<void>;
      this.running.add(lane);
      void task().finally(() => {
        this.running.delete(lane);
        // To the back of the line (the map's order is the order lanes are offered a free slot); a queue that
        // clear() dropped stays dropped.
        if (this.queues.get(lane) === queue) {
          this.queues.delete(lane);
          if (queue.length > 0) this.queues.set(lane, queue);
        }
        this.pump();
        if (this.idle) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    }
  }
}
