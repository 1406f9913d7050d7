import { OPENAI_ORIGIN, endpointOrigin } from '../../agent/activation';
import { keyHeaderFor } from './keyHeader';

// The API keys the user gave, each for one endpoint origin (endpointOrigin.ts), in VS Code's secret storage:
// a request carries only the key stored for its own origin — or, for api.openai.com alone, `OPENAI_API_KEY`
// from VS Code's environment. A key the workspace's settings could point elsewhere is a key given away, so
// none is ever read from settings, and none is sent to an origin it was not given for.
// No zod: Set API Key… runs in the activation bundle.

/** The part of `vscode.SecretStorage` the keys use (a plain object in unit tests). */
export interface SecretSlots {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/**
 * A key and the header that carries it: `authorization` (sent as `Bearer KEY`, OpenAI's way) or another, the
 * key as it is (`api-key`, Azure's, or a gateway's own). The endpoint's origin chooses (keyHeader.ts).
 */
export interface EndpointKey {
  header: string;
  value: string;
}

/** The single slot of Loopwire 0.1.0 and before: one key for whatever the endpoint was. */
export const LEGACY_SLOT = 'loopwire.apiKey';

const slotOf = (origin: string) => `loopwire.apiKey@${origin}`;

/** What a request to an endpoint carries: `apiKey` as the bearer token, or the key's own header. */
export interface Credentials {
  apiKey?: string;
  headers: Record<string, string>;
}

export interface EndpointKeysOptions {
  /**
   * Where the legacy slot's key goes when it is first moved: the endpoint the user's own settings name (where
   * it was used last by their choice), or undefined for the default (api.openai.com). Never a workspace's.
   */
  legacyEndpoint: () => string | undefined;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export class EndpointKeys {
  private migrated: Promise<void> | undefined;

  constructor(
    private readonly secrets: SecretSlots,
    private readonly options: EndpointKeysOptions,
  ) {}

  /** The key stored for `origin` (as {@link endpointOrigin} gives it), if any. */
  async get(origin: string): Promise<EndpointKey | undefined> {
    await this.migrate();
    return parseKey(await this.secrets.get(slotOf(origin)));
  }

  /** Stores `key` for `origin`; undefined removes the one there. */
  async set(origin: string, key: EndpointKey | undefined): Promise<void> {
    await this.migrate();
    if (key === undefined) await this.secrets.delete(slotOf(origin));
    else
      await this.secrets.store(slotOf(origin), JSON.stringify({ header: key.header.toLowerCase(), value: key.value }));
  }

  /** Whether a request to `endpoint` would carry a key: one stored for its origin, or OPENAI_API_KEY there. */
  async has(endpoint: string): Promise<boolean> {
    const { apiKey, headers } = await this.credentials(endpoint);
    return apiKey !== undefined || Object.keys(headers).length > 0;
  }

  /** What a request to `endpoint` carries: its origin's key, else OPENAI_API_KEY for api.openai.com, else nothing. */
  async credentials(endpoint: string): Promise<Credentials> {
    const origin = endpointOrigin(endpoint);
    if (origin === undefined) return { headers: {} };
    const key = await this.get(origin);
    if (key)
      return key.header === 'authorization'
        ? { apiKey: key.value, headers: {} }
        : { headers: { [key.header]: key.value } };
    const env = (this.options.env ?? process.env).OPENAI_API_KEY?.trim();
    return origin === OPENAI_ORIGIN && env ? { apiKey: env, headers: {} } : { headers: {} };
  }

  /**
   * The key of the single slot moves, once, to the origin the user's own settings name (api.openai.com when
   * they name none), in the header that origin takes (keyHeader.ts), unless that origin has a key of its own;
   * the slot is emptied either way.
   */
  private migrate(): Promise<void> {
    this.migrated ??= (async () => {
      const legacy = (await this.secrets.get(LEGACY_SLOT))?.trim();
      if (!legacy) return;
      const origin = endpointOrigin(this.options.legacyEndpoint() ?? '') ?? OPENAI_ORIGIN;
      if ((await this.secrets.get(slotOf(origin))) === undefined)
        await this.secrets.store(slotOf(origin), JSON.stringify({ header: keyHeaderFor(origin), value: legacy }));
      await this.secrets.delete(LEGACY_SLOT);
      this.options.log?.(`The API key set before keys were kept per endpoint is now ${origin}'s only.`);
    })();
    return this.migrated;
  }
}

/** A stored key, or undefined for anything that is not one (a slot written by hand, a newer format). */
function parseKey(raw: string | undefined): EndpointKey | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { header, value } = parsed as Record<string, unknown>;
    return typeof header === 'string' && typeof value === 'string' && value !== '' ? { header, value } : undefined;
  } catch {
    return undefined;
  }
}
