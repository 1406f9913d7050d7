// How many of the window's chats run a task at once (`loopwire.chat.maxParallel`): one more waits, in the
// order asked, until one of those running ends. Read at each start, so a changed setting applies to the next.
// A task stopped while it waits goes at once (it does nothing once started: its signal is aborted).

interface Waiter {
  start: () => void;
  signal: AbortSignal | undefined;
}

export class ParallelLimit {
  private running = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private readonly max: () => number) {}

  /**
   * Runs `task` now if fewer than the cap run, else once a slot is free (`waits` is told first, when it must
   * wait); a `signal` aborted meanwhile lets it through at once, without a slot.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal, waits?: () => void): Promise<T> {
    if (signal?.aborted) return task();
    if (this.running >= this.cap()) {
      waits?.();
      if (!(await this.slot(signal))) return task();
    } else this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.release();
    }
  }

  /** How many run now. */
  get active(): number {
    return this.running;
  }

  private cap(): number {
    const max = this.max();
    return Number.isFinite(max) && max >= 1 ? Math.floor(max) : 1;
  }

  /** Resolves true once a slot is the waiter's (counted), false if its signal aborted first. */
  private slot(signal: AbortSignal | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', abort);
          this.running++;
          resolve(true);
        },
      };
      const abort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        resolve(false);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    while (this.running < this.cap()) {
      const next = this.waiters.shift();
      if (!next) return;
      next.start();
    }
  }
}
