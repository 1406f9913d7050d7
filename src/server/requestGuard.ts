import type { IncomingMessage } from 'node:http';
import * as crypto from 'node:crypto';
import { type Refusal, refusals } from './apiErrors';

/**
 * The checks every request and upgrade passes first: no browser `Origin` (a web page must not drive a local
 * agent backend, whatever port it guesses), then the bearer token when the server has one.
 */
export function guardRequest(request: IncomingMessage, token: string | undefined): Refusal | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined) return refusals.browserOrigin(origin);
  if (token !== undefined && !hasToken(request, token)) return refusals.unauthorized();
  return undefined;
}

/** Constant-time comparison of the `Authorization: Bearer` token. */
export function hasToken(request: IncomingMessage, token: string): boolean {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
