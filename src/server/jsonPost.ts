import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { decodeJson, parseWire } from '../protocol';
import { refusals } from './apiErrors';
import { previousIdOf, readBody } from './httpBody';
import type { HttpContext } from './httpContext';
import { sendError } from './httpReplies';

// The JSON body of an API route's POST (`/v1/responses`, `/v1/responses/compact`), read, logged and parsed
// one way for both: a body past the limit is refused as too large (the connection closed, since the rest was
// not read), and every body gets its `in` line with its true size and `previous_response_id` before it is
// checked, so the wire log shows a refused request as well as an accepted one.

/** One POST: the server, the connection, the request and its answer, and its wire-log type. */
export interface JsonPost {
  ctx: HttpContext;
  conn: string;
  req: IncomingMessage;
  res: ServerResponse;
  type: string;
  /** Whether the log keeps the body where bodies are logged (`LOOPWIRE_WIRE_LOG` with bodies). */
  logBody: boolean;
}

/** The body as `schema` parses it and when reading it ended; undefined once a refusal has been sent for it. */
export async function readJsonPost<S extends z.ZodType>(
  post: JsonPost,
  schema: S,
): Promise<{ value: z.output<S>; started: number } | undefined> {
  const { ctx, conn, res, type } = post;
  const read = await readBody(post.req, ctx.options.limits.maxBodyBytes);
  if (!read.ok) {
    ctx.wireLog.record({ conn, transport: 'http', dir: 'in', type, bytes: read.bytes, previous_response_id: null });
    res.setHeader('connection', 'close');
    sendError(ctx, conn, res, refusals.tooLarge(ctx.options.limits.maxBodyBytes));
    return undefined;
  }
  const started = performance.now();
  const json = decodeJson(read.body.toString('utf8'));
  ctx.wireLog.record({
    conn,
    transport: 'http',
    dir: 'in',
    type,
    bytes: read.body.length,
    previous_response_id: json.ok ? previousIdOf(json.value) : null,
    ...(json.ok && post.logBody ? ctx.wireLog.bodyOf(json.value) : {}),
  });
  const parsed = json.ok ? parseWire(schema, json.value) : json;
  if (!parsed.ok) {
    sendError(ctx, conn, res, refusals.invalidBody(parsed.error));
    return undefined;
  }
  return { value: parsed.value, started };
}
