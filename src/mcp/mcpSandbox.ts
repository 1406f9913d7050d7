import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Confinement, type SandboxPolicy, type SandboxSupport, tempProgramFolders } from '../sandbox';
import type { McpServerConfig } from './mcpConfig';

// Where a stdio MCP server runs (docs/security.md). It is a program started on the user's yes, not on the
// model's word, so it gets what issue 46 gives such programs: `workspace-write` with the network on (a server
// that searches the web or calls an API is the common case), in the OS sandbox where this machine has one —
// the user's credential stores, Loopwire's own process and sessions, and every file outside the workspace
// out of its reach for writing. Unconfined only where the session's commands are too (the approval mode
// `all`, `--sandbox danger-full-access`), or where there is no sandbox at all, which is said, never hidden.
//
// Servers are mostly started through a package runner (`npx -y pkg`, `uvx pkg`, `bunx`, `go run pkg@v`),
// which downloads into a cache under the home folder, and the home folder is not writable here. Writing the
// user's own caches (~/.npm, ~/.cache) is what such a runner would do, but those caches are run later by the
// user's own, unconfined `npx` and `uvx`: a server able to write them could leave a package there that runs
// outside the sandbox at the user's next `npx`. So each server gets a cache folder of its own instead,
// `~/.cache/loopwire/mcp/NAME-HASH` (kept between runs: the second start is as quick as with the user's
// cache), and the runners' cache variables point into it. Of its own, keyed by what it runs and where: one
// server cannot plant code in another's cache, whose `env` may hold a token. Shell startup files, the user's
// services and credential stores stay read-only or hidden, as for every confined command.

/** How a session's stdio servers run. */
export type McpSandbox =
  /** In the OS sandbox: `workspace-write` on `roots` (the workspace folders), the network on. */
  | { kind: 'confined'; roots: readonly string[] }
  /** Unconfined on the user's word: the session's commands run with full access too. */
  | { kind: 'full-access' }
  /** Unconfined because this machine has no sandbox (`reason`, and how to get one). */
  | { kind: 'none'; reason: string; hint?: string | undefined };

/** The policy of a confined server: the workspace writable, the network on. */
export const MCP_POLICY: SandboxPolicy = { mode: 'workspace-write', network: true };

/**
 * The sandbox of a session's servers, from what its commands run in (`commands`: the policy the session's
 * mode gives them, undefined for full access or no sandbox, as src/agent's sandboxInForce answers), this
 * machine's `support`, and the workspace folders.
 */
export function mcpSandbox(
  commands: SandboxPolicy | undefined,
  support: SandboxSupport,
  roots: readonly string[],
): McpSandbox {
  if (!support.available) return { kind: 'none', reason: support.reason, hint: support.hint };
  return commands === undefined ? { kind: 'full-access' } : { kind: 'confined', roots };
}

/** One line for the log where servers run unconfined for want of a sandbox; undefined otherwise. */
export function unconfinedNote(sandbox: McpSandbox): string | undefined {
  if (sandbox.kind !== 'none') return undefined;
  const reason = sandbox.reason.trim().replace(/[.\s]*$/, '');
  const hint = sandbox.hint ? ` To have one, ${sandbox.hint}.` : '';
  return `MCP servers run unconfined, with the user's rights, as there is no sandbox here: ${reason}.${hint}`;
}

/** The base of every server's cache: `$XDG_CACHE_HOME/loopwire/mcp`, else `~/.cache/loopwire/mcp`. */
function cacheBase(env: NodeJS.ProcessEnv): string {
  const xdg = env['XDG_CACHE_HOME'];
  const home = env['HOME'] && path.isAbsolute(env['HOME']) ? env['HOME'] : os.homedir();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'loopwire', 'mcp');
}

/** `server`'s own cache folder: its name (for the user who looks) and a digest of what it runs, and where. */
export function serverCacheFolder(server: McpServerConfig & { type: 'stdio' }, env: NodeJS.ProcessEnv): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([server.command, server.args, server.cwd]))
    .digest('hex')
    .slice(0, 12);
  const name = server.name.replace(/[^\w.-]+/g, '_').slice(0, 40);
  return path.join(cacheBase(env), `${name}-${digest}`);
}

/** The package runners' cache variables, each pointed into `cache`. */
export function cacheVariables(cache: string): Record<string, string> {
  const at = (sub: string) => path.join(cache, sub);
  return {
    XDG_CACHE_HOME: cache,
    npm_config_cache: at('npm'),
    YARN_CACHE_FOLDER: at('yarn'),
    BUN_INSTALL_CACHE_DIR: at('bun'),
    DENO_DIR: at('deno'),
    UV_CACHE_DIR: at('uv'),
    // uvx downloads a Python where none fits, into the data folder: here, into the cache.
    UV_PYTHON_INSTALL_DIR: at('uv-python'),
    PIP_CACHE_DIR: at('pip'),
    GOCACHE: at('go-build'),
    GOMODCACHE: at('go-mod'),
  };
}

/** How one confined server is started: its confinement, and the variables that point its runners at its cache. */
export interface ServerConfinement {
  confinement: Confinement;
  /** Set on top of the inherited environment, under the server's own `env`. */
  env: Record<string, string>;
  /** Its cache folder, for a message; undefined where it could not be made (then nothing but the workspace is writable). */
  cache: string | undefined;
}

/** The confinement of `server` in `sandbox` (confined), its cache folder made if it can be. */
export function serverConfinement(
  server: McpServerConfig & { type: 'stdio' },
  roots: readonly string[],
  env: NodeJS.ProcessEnv,
): ServerConfinement {
  const folder = serverCacheFolder(server, env);
  let cache: string | undefined = folder;
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch {
    // A home that cannot be written: the server runs without a cache of its own, and says so if it needs one.
    cache = undefined;
  }
  const readable = programFolders(server);
  return {
    confinement: {
      policy: MCP_POLICY,
      roots,
      ...(cache ? { writable: [cache] } : {}),
      ...(readable.length > 0 ? { readable } : {}),
    },
    env: cache ? cacheVariables(cache) : {},
    cache,
  };
}

/**
 * The folders of what `server` runs that the sandbox's private /tmp would hide (its command, arguments and
 * folder), shown to it read only: the user chose to run that program, not to let it write there.
 */
export function programFolders(server: McpServerConfig & { type: 'stdio' }): string[] {
  return tempProgramFolders([server.command, ...server.args, server.cwd]);
}
