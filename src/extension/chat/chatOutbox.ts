import type { HostMessage } from '../../protocol/chatView';

// The chat's messages to the page, in order. Between a turn's response and the next request the agent
// shows what it did (the calls' cards, one with a read's whole output; the meter): each of those messages
// is, in the extension host, a webview postMessage (a copy and an IPC message) inside the turn's gap. They
// are held until the loop's next turn instead (setImmediate), once the loop has put that request on the
// socket; whatever is sent meanwhile waits behind them, so the page gets everything in order.

export class ChatOutbox {
  private readonly held: HostMessage[] = [];
  private pending: NodeJS.Immediate | undefined;

  constructor(private readonly post: (message: HostMessage) => void) {}

  /** Posts `message` now, or after those held. */
  send(message: HostMessage): void {
    if (this.pending) this.held.push(message);
    else this.post(message);
  }

  /** What is sent from now on waits for the loop's next turn. */
  hold(): void {
    this.pending ??= setImmediate(() => this.flush());
  }

  /** Posts what is held, now (a task's end: its last messages go before it is said to be over). */
  flush(): void {
    clearImmediate(this.pending);
    this.pending = undefined;
    for (const message of this.held.splice(0)) this.post(message);
  }
}
