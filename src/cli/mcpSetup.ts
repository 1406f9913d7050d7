import * as fs from 'node:fs';
import * as path from 'node:path';
import { type McpConfig, readMcpConfig, workspaceMcpFile } from '../mcp/mcpConfig';
import { BUILTIN_TOOLS, type ToolRegistry } from '../tools';

// `loopwire exec`'s MCP servers: those of `--mcp-config FILE`, else of the workspace's `.vscode/mcp.json`
// (VS Code's format, docs/tools.md), started before the task and stopped when it ends. Their tools join the
// built-in ones as `mcp__SERVER__TOOL`; a server that does not start is said on stderr and left out.

export const mcpFlagOptions = { 'mcp-config': { type: 'string' } } as const;

export const mcpFlagsUsage = `  --mcp-config FILE      the MCP servers to start, in VS Code's mcp.json format (default: the
                         workspace's .vscode/mcp.json, when there is one); their tools are mcp__SERVER__TOOL
`;

/**
 * The servers to start: `file`'s (it must exist), or the workspace's `.vscode/mcp.json` (none without one).
 * Throws, saying why, for a file that is not an MCP configuration.
 */
export async function mcpServersOf(file: string | undefined, workspaceRoot: string): Promise<McpConfig> {
  const vars = { workspaceFolder: workspaceRoot };
  if (file !== undefined) {
    const absolute = path.resolve(file);
    if (!fs.existsSync(absolute)) throw new Error(`--mcp-config: ${absolute} does not exist`);
    return (await readMcpConfig(absolute, vars)) ?? { servers: [], skipped: [] };
  }
  return (await readMcpConfig(workspaceMcpFile(workspaceRoot), vars)) ?? { servers: [], skipped: [] };
}

export interface ExecTools {
  /** The built-in tools and every started server's. */
  registry: ToolRegistry;
  /** Stops the servers. */
  close(): Promise<void>;
}

/** Starts `config`'s servers; each skipped or failed one, and each started one, is a line on `log`. */
export async function startExecTools(
  config: McpConfig,
  log: (line: string) => void,
  options: { callTimeoutMs?: number } = {},
): Promise<ExecTools> {
  for (const line of config.skipped) log(line);
  if (config.servers.length === 0) return { registry: BUILTIN_TOOLS, close: () => Promise.resolve() };
  // The MCP client (the SDK with its schemas and ajv) is loaded only when there is a server to start: most
  // runs have none, and loading it would cost each of them a good part of exec's start.
  const { startMcpServers } = await import('../mcp/mcpServers');
  const servers = await startMcpServers(config.servers, { log, reserved: BUILTIN_TOOLS.names, ...options });
  for (const server of servers.servers)
    if (server.error === undefined)
      log(`MCP server '${server.name}': ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`);
  return { registry: BUILTIN_TOOLS.with(servers.tools), close: () => servers.close() };
}
