import { t } from '@vscode/l10n';
import type { Dispatcher } from 'undici';

// Every request to the endpoint (a turn, a compaction, the endpoint check) goes through here, because Node's
// fetch follows a redirect by itself and strips only `Authorization` when it leaves the origin: a gateway's
// `api-key` header, any other header the person set, and the whole request body went wherever the endpoint
// pointed (issue 46). Here redirects are taken by hand: one within the endpoint's origin (scheme, host and port
// alike) is followed, as fetch did, because the key was given for that origin and a server moving a path
// (`/v1/models` → `/v1/models/`) should not break a setup; one to another origin is refused before anything is
// sent there, and the refusal names where it pointed so the person can set that endpoint if they trust it.

/** Redirects followed within the origin before giving up: enough for a moved path, short of a loop. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A redirect Loopwire does not follow: to another origin (`target`), or one too many. */
export class RedirectRefused extends Error {
  constructor(
    /** The origin it pointed to, when it left the endpoint's. */
    readonly target: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'RedirectRefused';
  }

  /** The message as a sentence of its own, for a stop or a notification. */
  get sentence(): string {
    return `${this.message.charAt(0).toUpperCase()}${this.message.slice(1)}.`;
  }
}

/** What the call sites pass to fetch: their headers are plain records, their bodies strings. */
export interface EndpointRequest {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  dispatcher?: Dispatcher | undefined;
}

/**
 * `fetch(url, init)` that follows redirects within `url`'s origin only, at most {@link MAX_REDIRECTS}.
 * Rejects with {@link RedirectRefused} for any other; a 3xx without a usable `Location` is returned as the
 * answer it is (nothing was sent elsewhere, and the caller reads it as any other failed status).
 */
export async function fetchSameOrigin(url: string, init: EndpointRequest): Promise<Response> {
  let current = new URL(url);
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...request, redirect: 'manual' });
    const next = REDIRECTS.has(response.status) ? locationOf(response, current) : undefined;
    if (next === undefined) return response;
    // The redirect's own body is not wanted: dropped, so its connection goes back to the pool.
    await response.body?.cancel().catch(() => undefined);
    if (next.origin !== current.origin) {
      // A scheme without an origin (`data:`, `file:`) says "null": named by its scheme instead.
      const where = next.origin === 'null' ? next.protocol : next.origin;
      throw new RedirectRefused(
        where,
        t('the endpoint redirected to {0}, another origin; Loopwire does not send the key there', where),
      );
    }
    if (hop >= MAX_REDIRECTS)
      throw new RedirectRefused(undefined, t('the endpoint redirected more than {0} times', MAX_REDIRECTS));
    request = redirected(request, response.status);
    current = next;
  }
}

function locationOf(response: Response, base: URL): URL | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/**
 * The request a redirect of `status` asks for, by fetch's rule: 307 and 308 repeat it as it was; 303, and
 * 301 or 302 after a POST, make it a GET without the body (and without the headers that described the body).
 */
function redirected(request: EndpointRequest, status: number): EndpointRequest {
  const method = request.method ?? 'GET';
  const toGet = (status === 303 && method !== 'GET') || ((status === 301 || status === 302) && method === 'POST');
  if (!toGet) return request;
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => !/^content-(type|encoding|language|location)$/i.test(name)),
  );
  return { ...request, method: 'GET', headers, body: undefined };
}
