import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ResponseObject, ResponseRequest } from '../protocol';
import { type Refusal, refusals } from './apiErrors';
import { postCompact } from './compactApi';
import type { HttpContext } from './httpContext';
import { sendError, sendJson } from './httpReplies';
import { JsonSink, SseSink } from './httpSinks';
import { readJsonPost } from './jsonPost';
import { newId } from './ids';
import { missingInput } from './inputChecks';
import { guardRequest } from './requestGuard';

/** Every plain HTTP request: the Responses API routes, `/v1/models`, and `/admin`. */
export async function handleHttp(ctx: HttpContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const conn = ctx.connectionId(req.socket);
  const { pathname } = new URL(req.url ?? '/', 'http://loopwire.invalid');
  const route = `${req.method ?? 'GET'} ${pathname}`;
  // Every request gets its `in` line; the two routes that read a body log it themselves, with its size.
  const logIn = (type: string) =>
    ctx.wireLog.record({ conn, transport: 'http', dir: 'in', type, bytes: 0, previous_response_id: null });
  const refused = guardRequest(req, ctx.options.token);
  if (refused) {
    logIn(route);
    req.resume();
    sendError(ctx, conn, res, refused);
    return;
  }
  if (pathname === '/v1/responses') {
    if (req.method === 'POST') return postResponse(ctx, conn, req, res);
    logIn(route);
    req.resume();
    return sendError(ctx, conn, res, refusals.methodNotAllowed(req.method ?? '?', pathname), { allow: 'POST' });
  }
  if (pathname === '/v1/responses/compact') {
    if (req.method === 'POST') return postCompact(ctx, conn, req, res);
    logIn(route);
    req.resume();
    return sendError(ctx, conn, res, refusals.methodNotAllowed(req.method ?? '?', pathname), { allow: 'POST' });
  }
  const stored = /^\/v1\/responses\/([^/]+)$/.exec(pathname);
  if (stored?.[1] !== undefined) {
    logIn(`${req.method ?? 'GET'} /v1/responses/{id}`);
    req.resume();
    if (req.method !== 'GET') return sendError(ctx, conn, res, refusals.methodNotAllowed(req.method ?? '?', pathname));
    const id = decodePathSegment(stored[1]);
    const entry = await ctx.store.get(id);
    if (!entry) return sendError(ctx, conn, res, refusals.responseNotFound(id));
    return sendJson(ctx, conn, res, 200, entry.response, 'response');
  }
  if (pathname.startsWith('/admin/')) return ctx.admin.handle(req, res, pathname, conn);
  logIn(route);
  req.resume();
  if (pathname === '/v1/models' && req.method === 'GET') {
    const models = {
      object: 'list',
      data: [{ id: 'loopwire-scripted', object: 'model', created: 0, owned_by: 'loopwire' }],
    };
    return sendJson(ctx, conn, res, 200, models, 'list');
  }
  sendError(ctx, conn, res, refusals.notFound(`No route for ${route}.`));
}

async function postResponse(ctx: HttpContext, conn: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const read = await readRequest(ctx, conn, req, res);
  if (read === undefined) return;
  const headers = { 'x-request-id': newId('req') };
  const sink = read.request.stream === true ? new SseSink(res, ctx.wireLog, conn, headers) : new JsonSink(res);
  const outcome = await ctx.service.run(read.request, 'http', sink, { parseMs: read.parseMs });
  return reply(ctx, conn, res, outcome, sink, headers);
}

/** The request body, logged and checked; undefined once a refusal has been sent for it. */
async function readRequest(
  ctx: HttpContext,
  conn: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ request: ResponseRequest; parseMs: number } | undefined> {
  const read = await readJsonPost({ ctx, conn, req, res, type: 'POST /v1/responses', logBody: true }, ResponseRequest);
  if (read === undefined) return undefined;
  const refusal = httpMisuse(read.value);
  if (refusal !== undefined) {
    sendError(ctx, conn, res, refusal);
    return undefined;
  }
  return { request: read.value, parseMs: performance.now() - read.started };
}

/** The run's outcome as the HTTP answer: the stream's end, the response as JSON, or the API's error. */
function reply(
  ctx: HttpContext,
  conn: string,
  res: ServerResponse,
  outcome: Awaited<ReturnType<HttpContext['service']['run']>>,
  sink: SseSink | JsonSink,
  headers: Record<string, string>,
): void {
  switch (outcome.kind) {
    case 'not_found':
    case 'invalid':
      return sendError(ctx, conn, res, outcome.refusal, headers);
    case 'refused': {
      const retry: Record<string, string> =
        outcome.retryAfterS === undefined ? {} : { 'retry-after': String(outcome.retryAfterS) };
      return sendError(ctx, conn, res, { status: outcome.status, error: outcome.error }, { ...headers, ...retry });
    }
    case 'aborted':
      if (!res.destroyed) res.destroy();
      return;
    case 'completed':
    case 'failed':
      if (sink instanceof SseSink) return sink.end();
      if (sink.corruptBody !== undefined) {
        res.writeHead(200, { ...headers, 'content-type': 'application/json' });
        res.end(sink.corruptBody);
        return;
      }
      if (outcome.kind === 'failed') return sendError(ctx, conn, res, failedAsError(outcome.response.error));
      return sendJson(ctx, conn, res, 200, outcome.response, 'response', headers);
  }
}

/** A failed response's error as a non-streaming request gets it: a 500 with the API's error object. */
function failedAsError(error: ResponseObject['error']): Refusal {
  return {
    status: 500,
    error: {
      type: 'server_error',
      code: error?.code ?? 'server_error',
      message: error?.message ?? 'failed',
      param: null,
    },
  };
}

/** Fields that belong to WebSocket mode only, features this server does not offer, or a request missing one. */
function httpMisuse(request: ResponseRequest): Refusal | undefined {
  if (request.model === undefined) return refusals.missingModel();
  if (request.background === true) return refusals.backgroundUnsupported();
  if (request.generate !== undefined) return refusals.webSocketOnly('generate');
  if (request.stream_id !== undefined) return refusals.webSocketOnly('stream_id');
  return missingInput(request);
}

/** A URL path segment decoded; a malformed escape is kept as written (then it is simply an unknown id). */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
