// MCP servers' tools as the agent's (docs/tools.md, "MCP servers"): the workspace's `.vscode/mcp.json`
// read (mcpConfig.ts), each server started with the official SDK's client (mcpConnection.ts) and its tools
// made `mcp__SERVER__TOOL` (mcpTools.ts), all of a session's started and stopped together (mcpServers.ts),
// a stdio one in the OS sandbox where there is one (mcpSandbox.ts, mcpStdio.ts).
// Plain Node: the CLI and the extension use it alike.
export {
  type ConfigVariables,
  type McpConfig,
  McpConfigError,
  type McpServerConfig,
  mcpConfigOf,
  readMcpConfig,
  workspaceMcpFile,
} from './mcpConfig';
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  McpConnection,
  type McpConnectionOptions,
  McpServerError,
  type McpToolInfo,
} from './mcpConnection';
export { MCP_POLICY, type McpSandbox, mcpSandbox, programFolders, unconfinedNote } from './mcpSandbox';
export { MCP_OUTPUT_CHARS, mcpSummary, mcpToolName, resultText } from './mcpTools';
export { type McpServerState, type McpServers, type StartMcpOptions, startMcpServers } from './mcpServers';
