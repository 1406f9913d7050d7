import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactRequest, decodeJson, parseWire } from '../protocol';
import { refusals } from './apiErrors';
import { previousIdOf, readBody } from './httpBody';
import type { HttpContext } from './httpContext';
import { sendError, sendJson } from './httpReplies';
import { newId } from './ids';
import { missingInput } from './inputChecks';

// `POST /v1/responses/compact` (docs/backend.md, "Compaction"): a context in, its user messages and one
// `compaction` item out, as a `response.compaction` object. HTTP only, as in the API; the same refusals as a
// response's input (no model, nothing to compact, an unknown stored id, a tool output answering no call,
// content this server did not issue, a context over the window).

const TYPE = 'POST /v1/responses/compact';

export async function postCompact(
  ctx: HttpContext,
  conn: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const read = await readBody(req, ctx.options.limits.maxBodyBytes);
  if (!read.ok) {
    ctx.wireLog.record({
      conn,
      transport: 'http',
      dir: 'in',
      type: TYPE,
      bytes: read.bytes,
      previous_response_id: null,
    });
    res.setHeader('connection', 'close');
    return sendError(ctx, conn, res, refusals.tooLarge(ctx.options.limits.maxBodyBytes));
  }
  const started = performance.now();
  const json = decodeJson(read.body.toString('utf8'));
  const previous = json.ok ? previousIdOf(json.value) : null;
  ctx.wireLog.record({
    conn,
    transport: 'http',
    dir: 'in',
    type: TYPE,
    bytes: read.body.length,
    previous_response_id: previous,
  });
  if (!json.ok) return sendError(ctx, conn, res, refusals.invalidBody(json.error));
  const parsed = parseWire(CompactRequest, json.value);
  if (!parsed.ok) return sendError(ctx, conn, res, refusals.invalidBody(parsed.error));
  const request = parsed.value;
  if (request.model == null) return sendError(ctx, conn, res, refusals.missingModel());
  const noInput = missingInput(request);
  if (noInput) return sendError(ctx, conn, res, noInput);
  const headers = { 'x-request-id': newId('req') };
  const outcome = await ctx.service.compact(request, performance.now() - started);
  if (outcome.kind !== 'compacted') return sendError(ctx, conn, res, outcome.refusal, headers);
  return sendJson(ctx, conn, res, 200, outcome.response, 'response.compaction', headers);
}
