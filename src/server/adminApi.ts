import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJson, parseWire } from '../protocol';
import { refusals } from './apiErrors';
import { FaultOrder, type FaultQueue } from './faults';
import { readBody } from './httpBody';
import { sendError, sendJson } from './httpReplies';
import type { TurnRecord } from './turnService';
import type { WireLog } from './wireLog';

/** What `GET /admin/stats` reports: enough to check that caps and eviction hold. */
export interface ServerStats {
  connections: number;
  cachedResponses: number;
  storedResponses: number;
  stateBytes: number;
  promptCacheEntries: number;
  turns: number;
  /** The server's own work summed over all turns so far (the benchmark reads it before and after a task). */
  work: Pick<
    TurnRecord,
    'parseMs' | 'loadMs' | 'workMs' | 'prefillMs' | 'inputTokens' | 'cachedTokens' | 'outputTokens'
  >;
}

/**
 * The admin endpoint of the reliability suites, usable only on a server started with a token (the guard has
 * checked it by now): `POST /admin/faults` queues a fault for the next responses, `GET` lists them,
 * `DELETE` clears them; `GET /admin/stats`; `POST /admin/drop-connections` cuts every WebSocket at once.
 */
export class AdminApi {
  constructor(
    private readonly faults: FaultQueue,
    private readonly stats: () => ServerStats,
    private readonly dropConnections: () => number,
    /** The server's wire log, and its token: without one, `/admin` is refused. */
    private readonly ctx: { readonly wireLog: WireLog; readonly token: string | undefined },
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string, conn: string): Promise<void> {
    const ctx = this.ctx;
    const route = `${req.method ?? 'GET'} ${pathname}`;
    const read = await readBody(req, 1024 * 1024);
    const bytes = read.ok ? read.body.length : read.bytes;
    ctx.wireLog.record({ conn, transport: 'http', dir: 'in', type: route, bytes, previous_response_id: null });
    if (ctx.token === undefined) return sendError(ctx, conn, res, refusals.adminNeedsToken());
    switch (route) {
      case 'POST /admin/faults': {
        if (!read.ok) return sendError(ctx, conn, res, refusals.tooLarge(1024 * 1024));
        const json = decodeJson(read.body.toString('utf8'));
        const order = json.ok ? parseWire(FaultOrder, json.value) : json;
        if (!order.ok) return sendError(ctx, conn, res, refusals.invalidBody(order.error));
        this.faults.add(order.value);
        return sendJson(ctx, conn, res, 200, { pending: this.faults.pending() }, 'faults');
      }
      case 'GET /admin/faults':
        return sendJson(ctx, conn, res, 200, { pending: this.faults.pending() }, 'faults');
      case 'DELETE /admin/faults':
        this.faults.clear();
        return sendJson(ctx, conn, res, 200, { pending: [] }, 'faults');
      case 'GET /admin/stats':
        return sendJson(ctx, conn, res, 200, this.stats(), 'stats');
      case 'POST /admin/drop-connections':
        return sendJson(ctx, conn, res, 200, { dropped: this.dropConnections() }, 'dropped');
      default:
        return sendError(ctx, conn, res, refusals.notFound(`No admin route ${route}.`));
    }
  }
}
