import { type AssemblerStep, ResponseAssembler } from './responseAssembler';
import { TurnCancelled, isUnreachable } from './transportFault';
import type { SteeredSegment, SuccessorFollower } from './successorFollower';
import type { ConnectError, WsChannel } from './wsChannel';

// One `response.create` on a socket's lane, to its terminal event: the WebSocket counterpart of
// httpExchange.ts. Frames go through the assembler; no event for `idleTimeoutMs` is a stall; a closed
// socket is a fault; a cancel settles at once and leaves the socket to `onCancel`.

/** How one request went, over either transport: what ended it, and what it cost on the wire. */
export interface Attempt {
  step: Exclude<AssemblerStep, { kind: 'continue' }>;
  assembler: ResponseAssembler;
  bytesSent: number;
  bytesReceived: number;
  sentAt: number;
  /** The socket it went over; 0 over HTTP. */
  generation: number;
  /** Responses of the turn that steers ended before the one in `step` (native steering only). */
  steered?: SteeredSegment[];
}

export interface WsExchange {
  channel: WsChannel;
  assembler: ResponseAssembler;
  body: Record<string, unknown>;
  lane: string | undefined;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** The user cancelled mid-response: the server may still be streaming it on this socket. */
  onCancel: () => void;
  /** Where the agent steers natively: reads the lane across a steered response and its successors. */
  follow?: SuccessorFollower | undefined;
  /** Told that the exchange is over, and whether by a fault (its steers' outcome then unknown). */
  onEnd?: ((faulted: boolean) => void) | undefined;
}

/** Resolves to the attempt's outcome; rejects with {@link TurnCancelled} when `signal` aborts first. */
export function exchangeWs(exchange: WsExchange): Promise<Attempt> {
  const { channel, assembler, body, lane, signal, idleTimeoutMs, follow } = exchange;
  return new Promise<Attempt>((resolve, reject) => {
    let bytesSent = 0;
    let settled = false;
    const sentAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const startBytes = channel.bytesReceived;
    const finish = (step: AssemblerStep) => {
      if (settled || step.kind === 'continue') return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      channel.release(lane);
      exchange.onEnd?.(step.kind === 'fault');
      const bytesReceived = channel.bytesReceived - startBytes;
      const steered = follow && follow.segments.length > 0 ? { steered: follow.segments } : {};
      resolve({ step, assembler, bytesSent, bytesReceived, sentAt, generation: channel.generation, ...steered });
    };
    follow?.onSettled(finish);
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => finish({ kind: 'fault', fault: { kind: 'stalled', idleMs: idleTimeoutMs } }),
        idleTimeoutMs,
      );
    };
    const onAbort = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      channel.release(lane);
      exchange.onEnd?.(true);
      exchange.onCancel();
      reject(new TurnCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    arm();
    bytesSent = channel.send({ type: 'response.create', ...body, ...(lane ? { stream_id: lane } : {}) }, lane, {
      event: (value) => {
        arm();
        finish(follow ? follow.accept(value) : assembler.accept(value));
      },
      malformed: () => {
        arm();
        assembler.acceptMalformed();
      },
      closed: (message) =>
        finish({ kind: 'fault', fault: { kind: 'closed', beforeFirstEvent: !assembler.started, message } }),
    });
  });
}

/** A socket that could not be opened, as the attempt of turn `turn` that never reached the wire. */
export function connectFailed(turn: number, error: ConnectError): Attempt {
  return {
    step: {
      kind: 'fault',
      fault: {
        kind: 'connect_failed',
        status: error.status,
        message: error.message,
        retryAfterMs: error.retryAfter === undefined ? undefined : Number(error.retryAfter) * 1000,
        unreachable: isUnreachable(error.code),
        ...(error.proxy ? { proxy: error.proxy } : {}),
      },
    },
    assembler: new ResponseAssembler(turn, () => undefined),
    bytesSent: 0,
    bytesReceived: 0,
    sentAt: performance.now(),
    generation: 0,
  };
}
