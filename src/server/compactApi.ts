import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactRequest } from '../protocol';
import { refusals } from './apiErrors';
import type { HttpContext } from './httpContext';
import { sendError, sendJson } from './httpReplies';
import { newId } from './ids';
import { missingInput } from './inputChecks';
import { readJsonPost } from './jsonPost';

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
  // The logged bodies have been the response route's alone (they came after this route): kept so here.
  const read = await readJsonPost({ ctx, conn, req, res, type: TYPE, logBody: false }, CompactRequest);
  if (read === undefined) return;
  const request = read.value;
  if (request.model == null) return sendError(ctx, conn, res, refusals.missingModel());
  const noInput = missingInput(request);
  if (noInput) return sendError(ctx, conn, res, noInput);
  const headers = { 'x-request-id': newId('req') };
  const outcome = await ctx.service.compact(request, performance.now() - read.started);
  if (outcome.kind !== 'compacted') return sendError(ctx, conn, res, outcome.refusal, headers);
  return sendJson(ctx, conn, res, 200, outcome.response, 'response.compaction', headers);
}
