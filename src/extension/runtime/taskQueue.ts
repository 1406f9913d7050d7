// The window's work on the default lane, one at a time in the order asked: a task, a chat prompt, and the
// closing of a replaced backend each wait for those before them, and one that fails never blocks the next.

export class TaskQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once everything queued before it has ended. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
