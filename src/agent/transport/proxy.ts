import { type Agent as HttpAgent, STATUS_CODES } from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { type Dispatcher, Pool, ProxyAgent } from 'undici';
import type { ProxyFault } from './transportFault';

// Which proxy a request to an endpoint goes through, and what takes it there: an agent for the WebSocket
// (`ws` opens it with `http.request`), a dispatcher for `fetch` (HTTP turns, compaction, the model list).
// Both tunnel with HTTP CONNECT, for `http:` endpoints too, so a proxy sees only host and port. The rules
// are curl's, read from the environment as Codex does: HTTPS_PROXY for https (wss) endpoints, HTTP_PROXY for
// http (ws) ones, lower case before upper, and NO_PROXY. A loopback endpoint is proxied like any other unless
// NO_PROXY names it; the embedded backend, in the same process, passes `off`.

export interface ProxySettings {
  /** A proxy for every endpoint (VS Code's `http.proxy`), in place of the environment's. */
  url?: string | undefined;
  /** Hosts reached directly (VS Code's `http.noProxy`), in place of NO_PROXY when not empty. */
  noProxy?: readonly string[] | undefined;
  /** `false` accepts certificates that do not verify on connections through the proxy (a TLS-inspecting one). */
  strictSSL?: boolean | undefined;
  /** Never through a proxy: the embedded backend. */
  off?: boolean | undefined;
  /** Where the variables are read (process.env when not given). */
  env?: NodeJS.ProcessEnv | undefined;
}

/** The proxy that requests to one endpoint go through. */
export interface ProxyRoute {
  url: URL;
  /** Where it was set (`HTTPS_PROXY`, `http_proxy`, `http.proxy`), for the messages. */
  source: string;
  strictSSL: boolean;
  /** How messages name it: the URL without its credentials, and where it was set. */
  label: string;
}

/** `NAME` as set in `env`, lower case first (curl's order); empty counts as unset. */
function variable(env: NodeJS.ProcessEnv, name: string): { name: string; value: string } | undefined {
  for (const key of [name.toLowerCase(), name.toUpperCase()]) {
    const value = env[key]?.trim();
    if (value) return { name: key, value };
  }
  return undefined;
}

/** The entries of a NO_PROXY value: separated by commas or spaces, lower-cased. */
export function parseNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

const defaultPort = (protocol: string) => (protocol === 'https:' || protocol === 'wss:' ? '443' : '80');

/** One NO_PROXY entry against a host (lower case, no brackets) and its port. */
function entryMatches(entry: string, host: string, port: string): boolean {
  if (entry === '*') return true;
  // `host:port`, `[v6]:port`; a bare IPv6 address has colons but no port.
  const withPort = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
  const name = (withPort?.[1] ?? entry).replace(/^\[|\]$/g, '');
  if (withPort && withPort[2] !== port) return false;
  // `example.com`, `.example.com` and `*.example.com` all name the domain and every host under it, as curl,
  // Go, reqwest (Codex) and VS Code read them.
  const domain = name.replace(/^\*?\./, '');
  return host === domain || host.endsWith(`.${domain}`);
}

/** Whether `target` is to be reached directly by the NO_PROXY `entries`. */
export function bypassesProxy(target: URL, entries: readonly string[]): boolean {
  const host = target.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = target.port || defaultPort(target.protocol);
  return entries.some((entry) => entryMatches(entry, host, port));
}

/** A proxy URL as given (`proxy:3128` means `http://proxy:3128`); an unsupported scheme is refused in words. */
function proxyUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new Error(`${source} is not a proxy URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${source} is ${url.protocol}//…: Loopwire goes through HTTP proxies only (http:// or https://).`);
  return url;
}

/**
 * The proxy for requests to `endpoint` (its `http:`/`https:` or `ws:`/`wss:` URL), or undefined when they go
 * directly. Throws when the proxy setting is not an HTTP proxy URL, so a task says so before any request.
 */
export function proxyRoute(endpoint: string, settings: ProxySettings = {}): ProxyRoute | undefined {
  if (settings.off === true) return undefined;
  const env = settings.env ?? process.env;
  // An endpoint that is not a URL fails on its first request, in that request's words.
  if (!URL.canParse(endpoint)) return undefined;
  const target = new URL(endpoint);
  const secure = target.protocol === 'https:' || target.protocol === 'wss:';
  const chosen = settings.url?.trim()
    ? { name: 'http.proxy', value: settings.url.trim() }
    : variable(env, secure ? 'HTTPS_PROXY' : 'HTTP_PROXY');
  if (!chosen) return undefined;
  const noProxy =
    settings.noProxy && settings.noProxy.length > 0
      ? settings.noProxy.map((entry) => entry.trim().toLowerCase())
      : parseNoProxy(variable(env, 'NO_PROXY')?.value);
  if (bypassesProxy(target, noProxy)) return undefined;
  const url = proxyUrl(chosen.value, chosen.name);
  return { url, source: chosen.name, strictSSL: settings.strictSSL !== false, label: labelOf(url, chosen.name) };
}

/** `http://proxy:3128 (HTTPS_PROXY)`: never the credentials a proxy URL may carry. */
function labelOf(url: URL, source: string): string {
  return `${url.protocol}//${url.host} (${source})`;
}

/** The WebSocket's side: the agent for `ws`'s options, and what the proxy answered to its CONNECT. */
export interface WsProxy {
  agent: HttpAgent;
  /** The options that carry `strictSSL: false` to the endpoint's TLS through the tunnel. */
  tls: { rejectUnauthorized?: boolean };
  /** The proxy's status to the CONNECT, once it answered. */
  connectStatus(): number | undefined;
}

/** A new agent per socket: the CONNECT answer it reports is this socket's own. */
export function wsProxy(route: ProxyRoute): WsProxy {
  const agent = new HttpsProxyAgent(route.url, route.strictSSL ? {} : { rejectUnauthorized: false });
  let status: number | undefined;
  agent.on('proxyConnect', (connect: { statusCode?: number }) => (status = connect.statusCode));
  return { agent, tls: route.strictSSL ? {} : { rejectUnauthorized: false }, connectStatus: () => status };
}

/**
 * One dispatcher per proxy, kept: HTTP turns reuse its connections as `fetch`'s own pool would. Its
 * `fetch` is Node's (or VS Code's, which replaces the dispatcher with its own for the same proxy).
 */
const dispatchers = new Map<string, Dispatcher>();

export function proxyDispatcher(route: ProxyRoute): Dispatcher {
  const key = `${route.url.href} ${route.strictSSL}`;
  let dispatcher = dispatchers.get(key);
  if (!dispatcher) {
    const tls = route.strictSSL ? {} : { rejectUnauthorized: false };
    dispatcher = new ProxyAgent({ uri: route.url.href, requestTls: tls, proxyTls: tls, clientFactory: tunnelPool });
    dispatchers.set(key, dispatcher);
  }
  return dispatcher;
}

/** A refusal of the CONNECT, with the proxy's status; `code` tells it from the endpoint's errors. */
class TunnelRefused extends Error {
  readonly code = 'ERR_PROXY_TUNNEL_REFUSED';
  constructor(readonly status: number) {
    super(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
  }
}

/**
 * The proxy's connection pool, whose CONNECT rejects with {@link TunnelRefused} when the proxy says no.
 * undici's own refusal is an abort, which `fetch` turns into 'Request was cancelled.' and so loses the status.
 */
function tunnelPool(origin: URL, options: object): Dispatcher {
  const pool = new Pool(origin, options);
  // The pool's own CONNECT, taken before it is replaced below.
  const connect: (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData> = pool.connect.bind(pool);
  const checked = async (options: Dispatcher.ConnectOptions) => {
    const data = await connect(options);
    if (data.statusCode === 200) return data;
    data.socket.destroy();
    throw new TunnelRefused(data.statusCode);
  };
  pool.connect = checked;
  return pool;
}

/** `fetch`'s init for a request to an endpoint: the dispatcher when a proxy applies, else nothing added. */
export function viaProxy(route: ProxyRoute | undefined): { dispatcher?: Dispatcher } {
  return route ? { dispatcher: proxyDispatcher(route) } : {};
}

/** Socket codes that say the proxy itself cannot be reached: through a tunnel, only the proxy is dialled. */
const PROXY_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** HTTP 407 and its reason phrase. */
export const statusText = (status: number): string =>
  `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;

/** What a proxy's refusal of the tunnel says, by its status. */
export function proxyRefusal(route: ProxyRoute, status: number): string {
  const hint =
    status === 407 ? '; it wants credentials: give them in the proxy URL, http://USER:PASSWORD@HOST:PORT' : '';
  return `the proxy ${route.label} did not connect to the endpoint: it answered ${statusText(status)}${hint}`;
}

/** What a proxy that cannot be reached says. */
export function proxyUnreachable(route: ProxyRoute, detail: string): string {
  return `nothing answers at the proxy ${route.label} (${detail})`;
}

/**
 * The proxy's part in a failed `fetch` through it: the tunnel refused ({@link TunnelRefused}) or the proxy
 * not answering; undefined when the failure is the endpoint's.
 */
export function fetchProxyFault(
  error: unknown,
  route: ProxyRoute | undefined,
): { message: string; fault: ProxyFault } | undefined {
  if (!route) return undefined;
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  const text = typeof cause?.message === 'string' ? cause.message : '';
  if (cause instanceof TunnelRefused)
    return { message: proxyRefusal(route, cause.status), fault: { proxy: route.label, status: cause.status } };
  if (typeof cause?.code === 'string' && PROXY_UNREACHABLE.has(cause.code))
    return { message: proxyUnreachable(route, text || cause.code), fault: { proxy: route.label, status: undefined } };
  return undefined;
}

/** Whether a socket error's code, on a connection through a proxy, is the proxy's not answering. */
export const isProxyUnreachable = (code: unknown): boolean => typeof code === 'string' && PROXY_UNREACHABLE.has(code);
