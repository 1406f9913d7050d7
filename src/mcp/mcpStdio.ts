import * as fs from 'node:fs';
import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { confineSpawn, sandboxRefusal, withoutLoopwireKeys } from '../sandbox';
import { ConfinedStdioTransport } from './confinedStdio';
import type { McpServerConfig } from './mcpConfig';
import { MCP_POLICY, type McpSandbox, serverConfinement } from './mcpSandbox';

// How a stdio server's process is started (mcpSandbox.ts says where): in the sandbox, through
// ConfinedStdioTransport, or unconfined through the SDK's own transport, as before the sandbox. Its
// environment either way: what Loopwire inherited, less what the process must not have — in the sandbox
// every secret (src/sandbox's withoutSecrets: keys, tokens, passwords, agent sockets), unconfined Loopwire's
// own keys (what a danger-full-access command gets: it can read the user's files anyway) — then the
// server's own `env` as the user wrote it, a token included (`null` unsets). And what to say when a
// sandboxed server does not start: that it ran in the sandbox, and what the sandbox refused if its stderr
// shows it.

type StdioServer = McpServerConfig & { type: 'stdio' };

/** A started (or starting) server's transport and its stderr; `cache` and `sandboxed` for a failure's message. */
export interface StdioStart {
  transport: Transport;
  stderr: Readable | null;
  sandboxed: boolean;
  /** The server's own cache folder in the sandbox, where it has one. */
  cache?: string | undefined;
}

/** `env` with the server's own variables on top (null unsets), every value a string. */
function withServerEnv(env: NodeJS.ProcessEnv, own: Record<string, string | null>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  for (const [key, value] of Object.entries(own)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

/** How many servers of this process run with each cache folder now (the same server may be restarting). */
const cacheUsers = new Map<string, number>();

/**
 * A cache the server never used goes with its last user (most servers are not run by npx or uvx): only an
 * empty folder is removed, so what a runner downloaded stays for the next start. At once, not later: a
 * restart right after must find the folder it binds.
 */
function releaseCache(cache: string): void {
  const left = (cacheUsers.get(cache) ?? 1) - 1;
  if (left > 0) return void cacheUsers.set(cache, left);
  cacheUsers.delete(cache);
  try {
    fs.rmdirSync(cache);
  } catch {
    // Not empty (a runner's downloads), or gone.
  }
}

/** The transport for `server` in `sandbox`, `base` the environment it inherits (Loopwire's). Throws where it cannot be confined. */
export function stdioTransport(server: StdioServer, sandbox: McpSandbox, base: NodeJS.ProcessEnv): StdioStart {
  if (sandbox.kind !== 'confined') {
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args,
      env: withServerEnv(withoutLoopwireKeys(base), server.env),
      cwd: server.cwd,
      stderr: 'pipe',
    });
    return { transport, stderr: transport.stderr as Readable | null, sandboxed: false };
  }
  const own = serverConfinement(server, sandbox.roots, base);
  // The secrets go before the server's own env is laid on: what the user wrote for it reaches it as written.
  const spec = { file: server.command, args: server.args, cwd: server.cwd, env: { ...base, ...own.env } };
  const confined = confineSpawn(spec, own.confinement);
  const env = withServerEnv(confined.env, server.env);
  const cache = own.cache;
  if (cache) cacheUsers.set(cache, (cacheUsers.get(cache) ?? 0) + 1);
  const cleanup = () => {
    confined.cleanup();
    if (cache) releaseCache(cache);
  };
  const transport = new ConfinedStdioTransport({ ...confined, env, cleanup }, server.cwd);
  return { transport, stderr: transport.stderr, sandboxed: true, cache: own.cache };
}

/** For a server that could not start in the sandbox: why, where bwrap found no program to run (ENOENT). */
export function notFoundInSandbox(stderr: string): string | undefined {
  const missing = /^bwrap: execvp (.+): No such file or directory$/m.exec(stderr);
  return missing ? `spawn ${missing[1]} ENOENT (no such program in the sandbox)` : undefined;
}

/**
 * What a sandboxed server's failed start adds to its message: that it ran in the sandbox and what it may
 * write there, what the sandbox refused where its stderr says, and the one way out (the user's own).
 */
export function sandboxSentence(stderr: string, cache: string | undefined): string {
  const writable = `the workspace folders${cache ? ` and its cache folder ${cache}` : ''}`;
  // A program bwrap did not find is not a refusal: the same command fails so outside the sandbox too.
  const refused = notFoundInSandbox(stderr) === undefined ? sandboxRefusal(stderr, MCP_POLICY) : undefined;
  return (
    ` It ran in the sandbox (workspace-write, network on: it may write ${writable} only)` +
    `${refused ? `, and the sandbox refused this: ${refused}` : ''}. ` +
    'An MCP server runs outside the sandbox only where commands do too: in the approval mode all ' +
    '(loopwire exec --approve all, or --sandbox danger-full-access).'
  );
}

/**
 * For a confined server's tool that failed: what the sandbox refused, if its output shows it, in a line that
 * keeps the model from retrying or working around it (only the user can let a server out); undefined else.
 */
export function toolRefusalNote(server: string, output: string): string | undefined {
  const refused = sandboxRefusal(output, MCP_POLICY);
  if (refused === undefined) return undefined;
  return (
    `(The MCP server '${server}' runs in the sandbox (workspace-write, network on), and the sandbox refused ` +
    `this: ${refused}. It runs outside the sandbox only in the approval mode all, which only the user can ` +
    'choose: tell the user rather than retry.)'
  );
}
