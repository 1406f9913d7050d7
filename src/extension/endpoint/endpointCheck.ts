import {
  type ProxyRoute,
  type ProxySettings,
  RedirectRefused,
  fetchProxyFault,
  fetchSameOrigin,
  normalizeEndpoint,
  proxyRoute,
  requestHeaders,
  viaProxy,
} from '../../agent';
import { endpointOrigin, originLabel } from '../../agent/activation';
import { errorCodeInfo } from '../../protocol/errorCodes';
import { t } from '@vscode/l10n';

// Select Endpoint…'s last step: does the endpoint answer, does it take the key, which models does it list?
// `GET /models` answers all three in one request the API does not bill; the socket's own check (the
// session's warm-up) follows in the window session. Plain Node (fetch), for the unit tests.

export type ModelsCheck =
  { ok: true; models: string[] } | { ok: false; cause: 'auth' | 'unreachable' | 'refused'; message: string };

/** How long the endpoint has to answer: a setup step must not hang on a host that swallows packets. */
const CHECK_TIMEOUT_MS = 10_000;

export async function checkModels(
  endpoint: string,
  credentials: { apiKey?: string | undefined; headers: Record<string, string>; proxy?: ProxySettings | undefined },
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<ModelsCheck> {
  const base = normalizeEndpoint(endpoint).replace(/\/+$/, '');
  const where = originLabel(endpointOrigin(endpoint) ?? endpoint);
  let response: Response;
  let proxy: ProxyRoute | undefined;
  try {
    // Through the proxy the session's requests take (proxy.ts), so the check says what a task would meet.
    proxy = proxyRoute(base, credentials.proxy);
  } catch (error) {
    return { ok: false, cause: 'refused', message: (error as Error).message };
  }
  try {
    response = await fetchSameOrigin(`${base}/models`, {
      headers: requestHeaders(credentials.apiKey, credentials.headers),
      signal: AbortSignal.timeout(timeoutMs),
      ...viaProxy(proxy),
    });
  } catch (error) {
    // Another origin's redirect: reached, but the endpoint as set cannot be used with its key.
    if (error instanceof RedirectRefused) return { ok: false, cause: 'refused', message: error.sentence };
    const proxied = fetchProxyFault(error, proxy);
    if (proxied) return { ok: false, cause: 'unreachable', message: `${capitalized(proxied.message)}.` };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { ok: false, cause: 'unreachable', message: t('Nothing answers at {0}: {1}.', where, cause) };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status === 401 || response.status === 403)
    return {
      ok: false,
      cause: 'auth',
      message: t('{0} refused the key (HTTP {1}{2}).', where, response.status, detailOf(body)),
    };
  // A server without the route still serves responses: it is reached, the model list is the catalogue's.
  if (response.status === 404 || response.status === 405) return { ok: true, models: [] };
  if (!response.ok)
    return {
      ok: false,
      cause: 'refused',
      message: t('{0} answered HTTP {1}{2}.', where, response.status, detailOf(body)),
    };
  return { ok: true, models: modelIds(body) };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The ids of an OpenAI-style model list (`{data: [{id}]}`), sorted; anything else: none. */
export function modelIds(body: unknown): string[] {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return [];
  const ids = data
    .map((model: unknown) => (typeof model === 'object' && model !== null ? (model as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id !== '');
  return [...new Set(ids)].sort();
}

/** `: CODE — message` of an API error body, with the error table's advice where it has some. */
function detailOf(body: unknown): string {
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error !== 'object' || error === null) return '';
  const { code, message } = error as { code?: unknown; message?: unknown };
  const parts = [typeof code === 'string' ? code : '', typeof message === 'string' ? message : ''].filter(Boolean);
  const advice = typeof code === 'string' ? errorCodeInfo(code)?.advice : undefined;
  return `${parts.length > 0 ? `: ${parts.join(' — ')}` : ''}${advice ? `. ${advice}` : ''}`;
}

/** Global state: the models each endpoint origin listed when it was checked, for the composer's picker. */
export const ENDPOINT_MODELS_KEY = 'loopwire.endpointModels';

export type EndpointCheck =
  | { ok: true; text: string; origin?: string; models?: string[] }
  | { ok: false; cause: 'auth' | 'unreachable' | 'refused'; text: string };

/**
 * The whole check of `endpoint`: its model list, then its socket (`openSocket`: the session's preconnect,
 * which says whether a socket opened). Said as one sentence for a notification and the panel.
 */
export async function checkEndpoint(
  endpoint: {
    endpoint: string;
    apiKey?: string | undefined;
    headers: Record<string, string>;
    proxy?: ProxySettings | undefined;
  },
  transport: 'ws' | 'http' | 'auto',
  openSocket: () => Promise<boolean>,
): Promise<EndpointCheck> {
  const origin = endpointOrigin(endpoint.endpoint);
  const where = originLabel(origin ?? endpoint.endpoint);
  const models = await checkModels(endpoint.endpoint, endpoint);
  if (!models.ok) return { ok: false, cause: models.cause, text: models.message };
  const count = models.models.length;
  const listed = count === 0 ? '' : count === 1 ? t(' (1 model listed)') : t(' ({0} models listed)', count);
  if (transport === 'http')
    return {
      ok: true,
      text: t('Connected to {0} over {1}{2}.', where, 'HTTP', listed),
      models: models.models,
      ...(origin ? { origin } : {}),
    };
  const socket = await openSocket().catch(() => false);
  if (!socket && transport === 'ws')
    return {
      ok: false,
      cause: 'refused',
      text: t('{0} answers, but its WebSocket did not open: set loopwire.transport to auto or http.', where),
    };
  const over = socket ? 'WebSocket' : t('HTTP (its WebSocket did not open)');
  return {
    ok: true,
    text: t('Connected to {0} over {1}{2}.', where, over, listed),
    models: models.models,
    ...(origin ? { origin } : {}),
  };
}
