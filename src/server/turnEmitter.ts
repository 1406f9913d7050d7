import * as fs from 'node:fs';
import { type Fault, faultError } from './faults';
import { delay } from './pacer';

/** Where one response's events go: an SSE stream, a WebSocket, or a buffer for a JSON answer. */
export interface TurnSink {
  /** Sends one event. */
  send(event: Record<string, unknown>): void;
  /** Sends text as one frame or SSE event as it is (the malformed and truncated frame faults). */
  sendRaw(text: string): void;
  /** Drops the connection without a goodbye. */
  drop(): void;
  /** False once the client has gone or the connection was dropped. */
  readonly open: boolean;
  /** Resolves when the client goes away. */
  readonly gone: Promise<void>;
}

/** How often a stall's `until_file` is looked for: well under what a person or a test would notice. */
const FILE_POLL_MS = 50;

/** Thrown to stop a response whose connection is gone; the transport has nothing more to do. */
export class TurnAborted extends Error {
  constructor() {
    super('the connection went away during the response');
  }
}

/** The `error` fault fired mid-stream: the response ends as `response.failed` with this error. */
export class TurnFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Numbers and sends the events of one response, and fires its fault (if any) when `after_events` events
 * have gone out.
 */
export class TurnEmitter {
  private sequence = 0;
  private fired = false;

  constructor(
    private readonly sink: TurnSink,
    private readonly fault: Fault | undefined,
    private readonly streamId: string | undefined,
  ) {}

  get sent(): number {
    return this.sequence;
  }

  async emit(event: Record<string, unknown>): Promise<void> {
    if (!this.sink.open) throw new TurnAborted();
    const fault = this.fault;
    if (fault && fault.kind !== 'slow' && !this.fired && this.sequence >= fault.after_events) {
      this.fired = true;
      await this.fire(fault, event);
    }
    this.sink.send(this.stamp(event));
  }

  /** Sends an event outside the fault schedule (the error that ends a failed response). */
  emitNow(event: Record<string, unknown>): void {
    if (this.sink.open) this.sink.send(this.stamp(event));
  }

  private stamp(event: Record<string, unknown>): Record<string, unknown> {
    const stamped = { ...event, sequence_number: this.sequence++ };
    return this.streamId === undefined ? stamped : { ...stamped, stream_id: this.streamId };
  }

  /** Resolves once `file` exists; stops looking when the stall ended otherwise (its time, the client gone). */
  private async fileAppears(file: string, stall: { on: boolean }): Promise<void> {
    while (stall.on && this.sink.open) {
      if (fs.existsSync(file)) return;
      await delay(FILE_POLL_MS);
    }
  }

  private async fire(fault: Exclude<Fault, { kind: 'slow' }>, next: Record<string, unknown>): Promise<void> {
    switch (fault.kind) {
      case 'close':
        this.sink.drop();
        throw new TurnAborted();
      case 'malformed_frame':
        this.sink.sendRaw('{"type":"response.output_text.delta","delta":');
        return;
      case 'truncated_frame': {
        const text = JSON.stringify(this.stamp(next));
        this.sink.sendRaw(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
        this.sink.drop();
        throw new TurnAborted();
      }
      case 'stall': {
        const stall = { on: true };
        await Promise.race([
          this.sink.gone,
          fault.ms === undefined ? new Promise<never>(() => undefined) : delay(fault.ms),
          ...(fault.until_file === undefined ? [] : [this.fileAppears(fault.until_file, stall)]),
        ]);
        stall.on = false;
        if (!this.sink.open) throw new TurnAborted();
        return;
      }
      case 'error':
        throw new TurnFailed(fault.code, faultError(fault).error.message);
    }
  }
}
