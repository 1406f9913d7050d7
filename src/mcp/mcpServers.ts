import type { ToolDefinition } from '../tools';
import type { McpServerConfig } from './mcpConfig';
import { McpConnection, type McpConnectionOptions } from './mcpConnection';
import { unconfinedNote } from './mcpSandbox';
import { isToolName, mcpToolDefinition, mcpToolName, uniqueName } from './mcpTools';

// The MCP servers of a session, started side by side: the tools of those that started, as the agent's
// tools; those that did not are left out (their tools are not offered) with one line in the log each. All
// of them stop together at the end (the CLI's exit, the extension's dispose). Where there is no sandbox to
// run the stdio ones in, one line says they run unconfined, and why.

/** How one server's start went. */
export interface McpServerState {
  name: string;
  /** The names its tools are offered by. */
  tools: string[];
  /** Why it is not offered, when it is not. */
  error?: string;
}

export interface McpServers {
  /** The agent's tools of every server that started (add them with `BUILTIN_TOOLS.with(tools)`). */
  readonly tools: ToolDefinition[];
  readonly servers: McpServerState[];
  /** Stops every server (their processes, for stdio ones). */
  close(): Promise<void>;
}

export interface StartMcpOptions extends McpConnectionOptions {
  /** Names already taken (the built-in tools'): a server's tool is renamed rather than shadow one. */
  reserved?: Iterable<string>;
}

/** Starts `configs` side by side; never rejects (a server that fails is left out, and says why). */
export async function startMcpServers(
  configs: readonly McpServerConfig[],
  options: StartMcpOptions,
): Promise<McpServers> {
  const note = unconfinedNote(options.sandbox);
  if (note !== undefined && configs.some((config) => config.type === 'stdio')) options.log(note);
  const connections = configs.map((config) => new McpConnection(config, options));
  const listed = await Promise.all(
    connections.map((connection) =>
      connection.start().then(
        (tools) => ({ connection, tools }),
        (error: unknown) => ({ connection, error: error instanceof Error ? error.message : String(error) }),
      ),
    ),
  );
  const taken = new Set(options.reserved ?? []);
  const tools: ToolDefinition[] = [];
  const servers: McpServerState[] = [];
  for (const entry of listed) {
    if ('error' in entry) {
      servers.push({ name: entry.connection.name, tools: [], error: entry.error });
      continue;
    }
    const names: string[] = [];
    for (const tool of entry.tools) {
      const name = uniqueName(mcpToolName(entry.connection.name, tool.name), taken);
      if (!isToolName(name)) continue;
      taken.add(name);
      names.push(name);
      tools.push(mcpToolDefinition(name, entry.connection, tool));
    }
    servers.push({ name: entry.connection.name, tools: names });
  }
  return {
    tools,
    servers,
    close: async () => {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}
