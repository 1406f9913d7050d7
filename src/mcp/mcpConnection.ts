import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './mcpConfig';
import type { McpSandbox } from './mcpSandbox';
import { notFoundInSandbox, sandboxSentence, stdioTransport } from './mcpStdio';

// One MCP server, through the official SDK's client: started (a child process over stdio, or a URL over
// Streamable HTTP or SSE), its tools listed, each call bounded by a timeout. Whatever goes wrong — it does
// not start, it crashes, it answers something that is not MCP, it does not answer — becomes an error whose
// message says so in words a model can act on, and one line in the log; nothing waits forever. A server
// that stopped is started again on its next call. A stdio server runs where `sandbox` says (mcpSandbox.ts),
// and a failure to start there names the sandbox.

/** A tool as its server lists it. */
export interface McpToolInfo {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  /** The JSON Schema of its arguments, as the server gave it. */
  inputSchema: Record<string, unknown>;
  /** `annotations.readOnlyHint`: it changes nothing. */
  readOnly: boolean;
}

/** What a call answered: the result's content parts as given, and whether the tool says it failed. */
export interface McpCallResult {
  content: readonly unknown[];
  isError: boolean;
  structuredContent?: unknown;
}

export interface McpConnectionOptions {
  /** Where one line per failure goes. */
  log: (line: string) => void;
  /** For connecting and listing the tools (default 30 s). */
  startTimeoutMs?: number;
  /** For each call (default 60 s). */
  callTimeoutMs?: number;
  /** The environment a stdio server inherits, before its own `env` (default: this process's; see mcpStdio.ts for what is taken out). */
  env?: NodeJS.ProcessEnv;
  /** Where stdio servers run: in the OS sandbox, or unconfined (the user's `all`, or no sandbox here). */
  sandbox: McpSandbox;
}

export const DEFAULT_START_TIMEOUT_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** What is kept of a server's stderr, to say why it stopped. */
const STDERR_KEPT = 2_000;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
/** An error's message; a schema's (the SDK checks answers with zod) as its first issue, on one line. */
function messageOf(error: unknown): string {
  const issues = (error as { issues?: unknown }).issues;
  if (Array.isArray(issues) && issues.length > 0) {
    const issue = issues[0] as { path?: unknown[]; message?: unknown };
    const where = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    return `${where}${String(issue.message)}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A failure the connection has put in words (the tool's output says it as it is). */
export class McpServerError extends Error {}

export class McpConnection {
  private client: Client | undefined;
  private starting: Promise<McpToolInfo[]> | undefined;
  private stderr = '';
  /** Where the server being started runs, for the failure's message: in the sandbox (and its cache), or not. */
  private sandboxedIn: { cache: string | undefined } | undefined;
  /** The client of a start under way. */
  private pending: Client | undefined;
  /** The last thing the server sent that is not MCP, said once per connection. */
  private garbage: string | undefined;
  private closedBy: 'us' | 'server' | undefined;
  private disposed = false;

  constructor(
    readonly config: McpServerConfig,
    private readonly options: McpConnectionOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Whether the server runs (or last ran) in the OS sandbox. */
  get sandboxed(): boolean {
    return this.sandboxedIn !== undefined;
  }

  /** Connects and lists the tools; rejects with a McpServerError saying why it could not. */
  start(): Promise<McpToolInfo[]> {
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Calls `tool`; rejects with a McpServerError when the server fails (a tool's own error is a result). */
  async call(tool: string, args: Record<string, unknown>): Promise<McpCallResult> {
    if (this.disposed)
      throw new McpServerError(
        `The MCP server '${this.name}' has been stopped (its configuration changed, or the session ended); its tools are not available in this task.`,
      );
    if (!this.client) {
      try {
        await this.start();
      } catch (error) {
        throw new McpServerError(`${messageOf(error)} So ${tool} could not run.`);
      }
    }
    const client = this.client;
    if (!client) throw new McpServerError(`The MCP server '${this.name}' is not running.`);
    const timeout = this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout });
      if (Array.isArray(result.content))
        return {
          content: result.content,
          isError: result.isError === true,
          ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
        };
      // The pre-2024-11 shape: `toolResult` in place of content.
      return { content: [{ type: 'text', text: JSON.stringify(result.toolResult ?? result) }], isError: false };
    } catch (error) {
      throw this.callFailure(tool, error, timeout);
    }
  }

  /** Stops the server (a stdio one: its process), for good. */
  async close(): Promise<void> {
    this.disposed = true;
    // A server still starting is ended now, not once it answers; its start sees `disposed` and gives up.
    await this.pending?.close().catch(() => undefined);
    await this.starting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.closedBy = 'us';
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<McpToolInfo[]> {
    const timeout = this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    if (this.disposed) throw new McpServerError(`The MCP server '${this.name}' has been stopped.`);
    this.stderr = '';
    this.garbage = undefined;
    this.closedBy = undefined;
    const client = new Client({ name: 'loopwire', version: '1' }, { capabilities: {} });
    this.pending = client;
    client.onerror = (error) => {
      if (this.garbage !== undefined) return;
      this.garbage = messageOf(error);
      // While starting, the start's own failure says it (one line).
      if (this.client === client)
        this.options.log(`MCP server '${this.name}' sent something that is not MCP: ${this.garbage}`);
    };
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.closedBy === 'us' || this.disposed) return;
      this.closedBy = 'server';
      this.options.log(`MCP server '${this.name}' stopped${this.lastWords()}`);
    };
    try {
      await client.connect(this.transport(), { timeout });
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
        for (const tool of page.tools)
          tools.push({
            name: tool.name,
            title: tool.title ?? tool.annotations?.title,
            description: tool.description,
            inputSchema: tool.inputSchema,
            readOnly: tool.annotations?.readOnlyHint === true,
          });
        cursor = page.nextCursor;
      } while (cursor !== undefined && tools.length < 1000);
      if (this.disposed) throw new McpServerError(`The MCP server '${this.name}' was stopped while it started.`);
      this.client = client;
      return tools;
    } catch (error) {
      this.closedBy = 'us';
      await client.close().catch(() => undefined);
      if (this.disposed) throw error instanceof McpServerError ? error : new McpServerError(messageOf(error));
      throw this.startFailure(error, timeout);
    } finally {
      if (this.pending === client) this.pending = undefined;
    }
  }

  /** Why the server could not be started, logged; in the sandbox, said so, with what it refused. */
  private startFailure(error: unknown, timeout: number): McpServerError {
    const missing = this.sandboxedIn && notFoundInSandbox(this.stderr);
    const why = isTimeout(error)
      ? `it did not answer within ${seconds(timeout)}`
      : missing || (isClosed(error) ? 'it stopped before it was ready' : messageOf(error));
    const sandbox = this.sandboxedIn ? sandboxSentence(this.stderr, this.sandboxedIn.cache) : '';
    const line = `The MCP server '${this.name}' could not be started (${this.where()}): ${why}${this.lastWords()}.${sandbox}`;
    this.options.log(line);
    return new McpServerError(line);
  }

  private transport(): Transport {
    const config = this.config;
    if (config.type !== 'stdio') {
      const url = new URL(config.url);
      const requestInit = { headers: config.headers };
      return config.type === 'sse'
        ? new SSEClientTransport(url, { requestInit })
        : new StreamableHTTPClientTransport(url, { requestInit });
    }
    this.sandboxedIn = undefined;
    const started = stdioTransport(config, this.options.sandbox, this.options.env ?? process.env);
    if (started.sandboxed) this.sandboxedIn = { cache: started.cache };
    started.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    return started.transport;
  }

  private callFailure(tool: string, error: unknown, timeout: number): McpServerError {
    const server = `The MCP server '${this.name}'`;
    let message: string;
    if (isTimeout(error)) {
      const garbage = this.garbage === undefined ? '' : ` It sent something that is not MCP: ${this.garbage}.`;
      message = `${server} did not answer ${tool} within ${seconds(timeout)}; the call was cancelled.${garbage}`;
      this.options.log(`MCP server '${this.name}': ${tool} timed out after ${seconds(timeout)}`);
    } else if (this.closedBy === 'server' || isClosed(error)) {
      message = `${server} stopped while running ${tool}${this.lastWords()}. It may or may not have done what was asked; it is started again on the next call.`;
    } else if (error instanceof McpError) {
      message = `${server} refused ${tool}: ${error.message}`;
      this.options.log(`MCP server '${this.name}': ${tool}: ${error.message}`);
    } else {
      message = `${server} answered ${tool} with something that is not an MCP tool result: ${messageOf(error).slice(0, 500)}`;
      this.options.log(`MCP server '${this.name}': ${tool} answered garbage: ${messageOf(error).slice(0, 200)}`);
    }
    return new McpServerError(message);
  }

  /** What the server is, for a message: its command line or URL. */
  private where(): string {
    const config = this.config;
    return config.type === 'stdio' ? [config.command, ...config.args].join(' ') : config.url;
  }

  /** The end of what the server wrote on stderr (stack frames left out), for a message; empty when nothing. */
  private lastWords(): string {
    const lines = this.stderr.split('\n').filter((line) => line.trim() !== '' && !/^\s+at /.test(line));
    if (lines.length === 0) return '';
    return `; its last words on stderr: ${lines.slice(-8).join('\n').slice(-600)}`;
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number);
}

function isClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
}
