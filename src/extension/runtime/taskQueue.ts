// The window's work on the default lane, one at a time in the order asked: a task, a chat prompt, and the
// closing of a replaced backend each wait for those before them, and one that fails never blocks the next.
// A chat on a lane of its own runs beside them (`beside`); the closing of a backend waits for those too.

export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly running = new Set<Promise<unknown>>();

  /** Runs `task` once everything queued before it has ended. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Runs `task` now, beside the queue (its own lane), counted until it ends. */
  beside<T>(task: () => Promise<T>): Promise<T> {
    const running = task();
    const settled = running.catch(() => undefined);
    this.running.add(settled);
    void settled.then(() => this.running.delete(settled));
    return running;
  }

  /** Settles once the tasks running beside the queue now have ended (the socket they use may then close). */
  async besideDone(): Promise<void> {
    await Promise.all([...this.running]);
  }
}
