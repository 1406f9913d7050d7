import * as fs from 'node:fs';

/** One line of the wire log (`--log FILE`); these field names are a contract (docs/backend.md, "Wire log"). */
export interface WireRecord {
  /** The connection: an HTTP request's socket, or a WebSocket. */
  conn: string;
  transport: 'http' | 'ws';
  /** `in` = to the server, `out` = from it; absent on lines about the connection itself. */
  dir?: 'in' | 'out';
  /** The event's own `type`, `POST /v1/responses` for an HTTP request, or `open`/`close` for a connection. */
  type: string;
  /** Payload size in bytes. */
  bytes?: number;
  /** On every request (HTTP or `response.create`): the id it chains from, or null. */
  previous_response_id?: string | null;
  [extra: string]: unknown;
}

/** Appends the wire log as JSON lines; a no-op without a file, so the hot path pays nothing then. */
export class WireLog {
  private readonly stream: fs.WriteStream | undefined;
  /** The bodies' log (`--log-bodies FILE`): a line per request, its transport and body as received. */
  private readonly bodyStream: fs.WriteStream | undefined;

  /**
   * `bodies`: the wire log's request lines carry the request itself (`body`), ServerOptions.logBodies.
   * `bodyFile`: the bodies alone, one line per request, ServerOptions.bodyLogFile.
   */
  constructor(
    file: string | undefined,
    onError: (error: Error) => void,
    private readonly bodies = false,
    bodyFile?: string,
  ) {
    this.stream = file ? fs.createWriteStream(file, { flags: 'a' }) : undefined;
    this.stream?.on('error', onError);
    this.bodyStream = bodyFile ? fs.createWriteStream(bodyFile, { flags: 'a' }) : undefined;
    this.bodyStream?.on('error', onError);
  }

  get enabled(): boolean {
    return this.stream !== undefined;
  }

  /** `{ body }` for a request's line when bodies are logged (in the wire log or their own), else nothing. */
  bodyOf(body: unknown): { body?: unknown } {
    return (this.bodies && this.stream) || this.bodyStream ? { body } : {};
  }

  record(record: WireRecord): void {
    const ts = Date.now();
    const { body, ...line } = record;
    if (this.bodyStream && body !== undefined)
      this.bodyStream.write(`${JSON.stringify({ ts, conn: record.conn, transport: record.transport, body })}\n`);
    if (this.stream) this.stream.write(`${JSON.stringify({ ts, ...(this.bodies ? record : line) })}\n`);
  }

  close(): Promise<void> {
    const streams = [this.stream, this.bodyStream].filter((stream) => stream !== undefined);
    return Promise.all(streams.map((stream) => new Promise<void>((resolve) => stream.end(resolve)))).then(
      () => undefined,
    );
  }
}

/** The `type` of an event or frame for the log, without trusting it to be an object. */
export function typeOf(value: unknown): string {
  if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string')
    return (value as { type: string }).type;
  return 'invalid';
}
