// Whom a key belongs to: an endpoint's origin. A key is given for one place and goes nowhere else, so two
// spellings of the same place must agree (`wss://API.openai.com:443/v1/responses` and
// `https://api.openai.com/v1/`) and two places must never (another port, another host, http against https).
// Plain and free of zod: the extension's activation bundle reads it.

/** The host whose key may also come from `OPENAI_API_KEY` (where the environment has one). */
export const OPENAI_ORIGIN = 'https://api.openai.com';

/**
 * The origin of `endpoint`, as `scheme://host[:port]`: a WebSocket scheme as its HTTP twin (the socket and the
 * HTTP fallback of one endpoint go to one server), the host in lower case, the port only when it is not the
 * scheme's default. Undefined for anything that is not an http, https, ws or wss URL (`embedded` among them).
 */
export function endpointOrigin(endpoint: string): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    return undefined;
  }
  const scheme = { 'http:': 'http', 'ws:': 'http', 'https:': 'https', 'wss:': 'https' }[url.protocol];
  if (scheme === undefined || url.hostname === '') return undefined;
  // URL drops a port that is its own scheme's default; ws's (80) and wss's (443) are http's and https's.
  return `${scheme}://${url.host.toLowerCase()}`;
}

/** Whether `a` and `b` name the same origin (both must be endpoints: `embedded` matches nothing). */
export function sameOrigin(a: string, b: string): boolean {
  const origin = endpointOrigin(a);
  return origin !== undefined && origin === endpointOrigin(b);
}

/** An origin as people read it: the host and port, without the scheme, unless it is plain http. */
export function originLabel(origin: string): string {
  return origin.startsWith('https://') ? origin.slice('https://'.length) : origin;
}
