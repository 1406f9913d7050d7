import type { ServerResponse } from 'node:http';
import type { TurnSink } from './turnEmitter';
import type { WireLog } from './wireLog';

/** Resolves when the client's connection closes, after `onClose` marks the sink closed. */
function closedOnce(res: ServerResponse, onClose: () => void): Promise<void> {
  return new Promise((resolve) =>
    res.on('close', () => {
      onClose();
      resolve();
    }),
  );
}

/** A response streamed as server-sent events: `event: <type>` and `data: <json>` per event (docs/protocol.md §6). */
export class SseSink implements TurnSink {
  readonly gone: Promise<void>;
  private closed = false;
  private started = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly log: WireLog,
    private readonly conn: string,
    private readonly headers: Record<string, string>,
  ) {
    this.gone = closedOnce(res, () => (this.closed = true));
  }

  get open(): boolean {
    return !this.closed && !this.res.destroyed;
  }

  get hasStarted(): boolean {
    return this.started;
  }

  send(event: Record<string, unknown>): void {
    const type = String(event.type);
    this.write(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`, type);
  }

  sendRaw(text: string): void {
    this.write(`data: ${text}\n\n`, 'invalid');
  }

  drop(): void {
    this.closed = true;
    cut(this.res);
  }

  end(): void {
    if (this.open) this.res.end();
  }

  private write(frame: string, type: string): void {
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, {
        ...this.headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
    }
    this.res.write(frame);
    if (this.log.enabled)
      this.log.record({ conn: this.conn, transport: 'http', dir: 'out', type, bytes: Buffer.byteLength(frame) });
  }
}

/** A response answered as one JSON body once complete: events are only counted (faults still fire by count). */
export class JsonSink implements TurnSink {
  readonly gone: Promise<void>;
  /** A body the malformed-frame fault asked for instead of the real one. */
  corruptBody: string | undefined;
  private closed = false;

  constructor(private readonly res: ServerResponse) {
    this.gone = closedOnce(res, () => (this.closed = true));
  }

  get open(): boolean {
    return !this.closed && !this.res.destroyed;
  }

  send(): void {}

  sendRaw(text: string): void {
    this.corruptBody ??= text;
  }

  drop(): void {
    this.closed = true;
    cut(this.res);
  }
}

/**
 * Cuts an HTTP connection mid-answer, after what was written so far has gone out. Node corks a response's
 * socket until the next tick, so destroying it at once would drop the events a `close` or `truncated_frame`
 * fault is meant to deliver first.
 */
function cut(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  while (socket.writableCorked > 0) socket.uncork();
  socket.destroy();
}
