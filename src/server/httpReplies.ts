import type { ServerResponse } from 'node:http';
import type { Refusal } from './apiErrors';
import type { WireLog } from './wireLog';

// The server's plain JSON replies over HTTP — an API route's answer, an admin route's, or an error body —
// each written once (never after the headers went out) and logged as an `out` line of the wire log.

/** What a reply needs from the server: the wire log it is recorded in. */
export interface ReplyContext {
  readonly wireLog: WireLog;
}

/** Sends an API error body (`{"error": {...}}`) with its status. */
export function sendError(
  ctx: ReplyContext,
  conn: string,
  res: ServerResponse,
  refused: Refusal,
  headers: Record<string, string> = {},
): void {
  sendJson(ctx, conn, res, refused.status, { error: refused.error }, 'error', headers);
}

/** Sends `body` as JSON with `status`; `type` names it in the wire log. */
export function sendJson(
  ctx: ReplyContext,
  conn: string,
  res: ServerResponse,
  status: number,
  body: unknown,
  type: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
  ctx.wireLog.record({ conn, transport: 'http', dir: 'out', type, bytes: Buffer.byteLength(text), status });
}
