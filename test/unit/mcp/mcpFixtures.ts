import { type ChildProcess, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { type McpSandbox, type McpServerConfig, mcpSandbox } from '../../../src/mcp';
import { sandboxSupport } from '../../../src/sandbox';
import { repoRoot } from '../support/runProcess';

// The MCP servers the tests start: test/fixtures/mcp/echoServer.mjs (written with the SDK: say, shout, touch,
// env, picture, fail, slow, crash) over stdio or Streamable HTTP, and garbageServer.mjs (answers garbage);
// fixtures/probeServer.mjs tries what a hostile server would (mcpSandbox.test.ts).

export const ECHO_SERVER = path.join(repoRoot, 'test/fixtures/mcp/echoServer.mjs');
export const GARBAGE_SERVER = path.join(repoRoot, 'test/fixtures/mcp/garbageServer.mjs');

export const PROBE_SERVER = path.join(__dirname, 'fixtures/probeServer.mjs');

/**
 * Where a session's stdio servers run on this machine, writing in `roots`: in the sandbox where there is one
 * (as the CLI's and the window's default modes have them), unconfined and said so where there is none.
 */
export const machineMcpSandbox = (roots: readonly string[]): McpSandbox =>
  mcpSandbox({ mode: 'workspace-write', network: false }, sandboxSupport(), roots);

/** Loopwire's environment for the tests' servers: their caches under the temp folder, not the user's home. */
export const testServerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  XDG_CACHE_HOME: path.join(os.tmpdir(), 'loopwire-mcp-test-cache'),
});

/** A stdio server running `script` with this Node. */
export const stdioServer = (
  name: string,
  script: string,
  env: Record<string, string | null> = {},
): McpServerConfig => ({
  name,
  type: 'stdio',
  command: process.execPath,
  args: [script],
  env,
  cwd: repoRoot,
});

/** The echo server over Streamable HTTP on 127.0.0.1, in its own process; `stop` ends it. */
export async function httpEchoServer(): Promise<{ url: string; stop(): void; process: ChildProcess }> {
  const child = spawn(process.execPath, [ECHO_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the HTTP echo server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill(), process: child };
}
