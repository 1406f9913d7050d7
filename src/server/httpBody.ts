import type { IncomingMessage } from 'node:http';

/** A request body, or how big it was once it passed the limit (the rest is read but not buffered). */
export type BodyResult = { ok: true; body: Buffer } | { ok: false; bytes: number };

/** Reads a request body up to `limit` bytes; past it only counts, so the wire log still gets the true size. */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      resolve({ ok: false, bytes: declared });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) chunks.length = 0;
      else chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(size > limit ? { ok: false, bytes: size } : { ok: true, body: Buffer.concat(chunks) }),
    );
    request.on('error', reject);
  });
}

/** The `previous_response_id` of a body, for the wire log, before (and whether or not) it validates. */
export function previousIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { previous_response_id?: unknown }).previous_response_id;
  return typeof id === 'string' ? id : null;
}
