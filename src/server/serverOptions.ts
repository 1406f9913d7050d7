import type { ScenarioFile } from './scenarioFile';

/** How a server is started: the CLI flags of `loopwire-server`, and the same settings for in-process use. */
export interface ServerOptions {
  /** Interface to bind; loopback unless told otherwise. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When set, every request and upgrade needs `Authorization: Bearer <token>`; also unlocks `/admin`. */
  token?: string;
  /** Scenario files in load order (first match wins), already parsed. */
  scenarios?: readonly ScenarioFile[];
  /**
   * How a user of the front end that starts this server adds a scenario, as a clause after "write a scenario
   * file and …": the answer to a prompt no scenario matches ends with it. Default: start loopwire-server with
   * --scenario FILE.
   */
  scenarioHint?: string;
  /** Simulated output speed, tokens per second. */
  tps?: number;
  /** Simulated prefill cost per input token not served from a cache, in microseconds. */
  prefillUsPerToken?: number;
  /** Keep `store: true` responses on disk here (across restarts) instead of only in memory. */
  storeDir?: string;
  /** Append the wire log (one JSON line per request, event and frame) to this file. */
  logFile?: string;
  /**
   * Each request's line of the wire log also carries the request as received (`body`): what a test or a bug
   * report needs to see what the model was sent. Off by default: a full context is large.
   */
  logBodies?: boolean;
  /** Append one JSON line per request to this file: its `transport` and `body` as received (`--log-bodies`). */
  bodyLogFile?: string;
  /** WebSocket connection age limit in seconds (the API's is 60 minutes). */
  maxConnectionS?: number;
  /**
   * The model's context window, in input tokens: a request whose rendered input is larger is refused with
   * `context_length_exceeded`. Default DEFAULTS.contextWindow.
   */
  contextWindow?: number;
  /** Where the server's own log lines go (the CLI passes stderr); silent when absent. */
  log?: (line: string) => void;
  limits?: Partial<ServerLimits>;
}

/** The caps that keep a long-running server bounded. */
export interface ServerLimits {
  /** Largest HTTP body and WebSocket frame accepted: a 1M-token context is ~4-8 MB of JSON. */
  maxBodyBytes: number;
  /** Responses a socket keeps chainable (the latest of each lane is among them; older ones are evicted first). */
  cachedResponsesPerConnection: number;
  /** `store: true` responses kept (memory and disk); the oldest are evicted. */
  storedResponses: number;
  /** Bytes of context that connection caches and the memory store may hold together, counted conservatively. */
  stateBytes: number;
  /** Prompt-prefix cache entries (one per item boundary of a context). */
  promptCacheEntries: number;
  /** Concurrent responses on one socket; more wait their turn. */
  activeResponsesPerConnection: number;
  /** Distinct named `stream_id` lanes per socket (the default lane not counted). */
  namedLanesPerConnection: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxBodyBytes: 64 * 1024 * 1024,
  cachedResponsesPerConnection: 16,
  storedResponses: 10_000,
  stateBytes: 512 * 1024 * 1024,
  promptCacheEntries: 100_000,
  activeResponsesPerConnection: 16,
  namedLanesPerConnection: 32,
};

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  tps: 1000,
  /** 10 µs per token = 100k tokens/s of prefill, the order of fast inference hardware. */
  prefillUsPerToken: 10,
  maxConnectionS: 60 * 60,
  /**
   * The input window of the GPT-5 family Loopwire's agent defaults to (`gpt-5.5`): a 400,000-token context of
   * which up to 128,000 go to output, leaving 272,000 for input (docs/backend.md, "The context window").
   */
  contextWindow: 272_000,
} as const;

/** Options with every default filled in. */
export interface ResolvedOptions {
  host: string;
  port: number;
  token: string | undefined;
  scenarios: readonly ScenarioFile[];
  scenarioHint: string | undefined;
  tps: number;
  prefillUsPerToken: number;
  storeDir: string | undefined;
  logFile: string | undefined;
  logBodies: boolean;
  bodyLogFile: string | undefined;
  maxConnectionS: number;
  contextWindow: number;
  log: (line: string) => void;
  limits: ServerLimits;
}

export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const positive = (name: string, value: number): number => {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
    return value;
  };
  return {
    host: options.host ?? DEFAULTS.host,
    port: options.port ?? DEFAULTS.port,
    token: options.token,
    scenarios: options.scenarios ?? [],
    scenarioHint: options.scenarioHint,
    tps: positive('tps', options.tps ?? DEFAULTS.tps),
    prefillUsPerToken: Math.max(0, options.prefillUsPerToken ?? DEFAULTS.prefillUsPerToken),
    storeDir: options.storeDir,
    logFile: options.logFile,
    logBodies: options.logBodies ?? false,
    bodyLogFile: options.bodyLogFile,
    maxConnectionS: positive('maxConnectionS', options.maxConnectionS ?? DEFAULTS.maxConnectionS),
    contextWindow: Math.ceil(positive('contextWindow', options.contextWindow ?? DEFAULTS.contextWindow)),
    log: options.log ?? (() => undefined),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  };
}
