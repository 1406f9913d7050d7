import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ApprovalMode, type SandboxChoice, sandboxInForce } from '../../agent';
import { type McpConfig, readMcpConfig, workspaceMcpFile } from '../../mcp/mcpConfig';
import { describeServer, serverCount, shellWord } from '../../mcp/mcpConsent';
import { mcpSandbox } from '../../mcp/mcpSandbox';
import { BUILTIN_TOOLS, type ToolRegistry } from '../../tools';
import { askOnTerminal, onTerminal } from './terminalQuestion';
import { t } from '../cliL10n';

// `loopwire exec`'s MCP servers, started before the task and stopped when it ends; their tools join the
// built-in ones as `mcp__SERVER__TOOL`, and a server that does not start is said on stderr and left out.
// `--mcp-config FILE` is the user's own choice, started as it is. The workspace's `.vscode/mcp.json` came with
// the repository, from whoever wrote it: its servers (programs run with the user's rights) start only after a
// yes on the terminal, and without a terminal not at all, said in one line naming the flag (docs/tools.md).
// A stdio server runs in the OS sandbox (workspace-write, network on) unless the run's commands have full
// access (--approve all, --sandbox danger-full-access), or there is no sandbox here (said in one line).

export const mcpFlagOptions = { 'mcp-config': { type: 'string' } } as const;

export const mcpFlagsUsage = `  --mcp-config FILE      ${t(
  "start the MCP servers FILE names, in VS Code's mcp.json format; their tools are\n                         mcp__SERVER__TOOL. Without it, the workspace's .vscode/mcp.json servers start only\n                         after a yes on the terminal, and none start without one: --mcp-config .vscode/mcp.json\n                         is that yes",
)}
`;

const NONE: McpConfig = { servers: [], skipped: [] };

/** Who can say yes to a workspace's servers: the user at a terminal, or nobody. */
export interface McpConsentIo {
  stderr: (text: string) => void;
  /** Asks on the terminal and resolves the answer; undefined where there is no terminal to ask on. */
  ask: ((question: string) => Promise<string>) | undefined;
}

/** Asks on the terminal where there is one (stdin and stderr), else nobody: exec's own case. */
export const terminalConsent = (stderr: (text: string) => void): McpConsentIo => ({
  stderr,
  ask: onTerminal() ? askOnTerminal : undefined,
});

/**
 * The servers to start: `file`'s (it must exist), or those of the workspace's `.vscode/mcp.json` that the
 * user allows through `consent` (none without the file). Throws, saying why, for a file that is not an MCP
 * configuration.
 */
export async function mcpServersOf(
  file: string | undefined,
  workspaceRoot: string,
  consent: McpConsentIo,
): Promise<McpConfig> {
  const vars = { workspaceFolder: workspaceRoot };
  if (file !== undefined) {
    const absolute = path.resolve(file);
    if (!fs.existsSync(absolute)) throw new Error(`--mcp-config: ${absolute} does not exist`);
    return (await readMcpConfig(absolute, vars)) ?? NONE;
  }
  const workspaceFile = workspaceMcpFile(workspaceRoot);
  const config = (await readMcpConfig(workspaceFile, vars)) ?? NONE;
  if (config.servers.length === 0) return config;
  return (await workspaceServersAllowed(config, shownPath(workspaceFile), consent)) ? config : NONE;
}

/** `file` as the user would type it from here: relative to the current folder when inside it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return shellWord(relative.startsWith('..') || path.isAbsolute(relative) ? file : relative);
}

/** Whether the user says yes to all of `config`'s servers (one question for the run, each server's line shown). */
async function workspaceServersAllowed(config: McpConfig, shown: string, consent: McpConsentIo): Promise<boolean> {
  const them = config.servers.length === 1 ? 'it' : 'them';
  const count = serverCount(config.servers);
  if (consent.ask === undefined) {
    consent.stderr(
      `loopwire exec: ${shown} names ${count}, not started without a terminal to ask on; ` +
        `to start ${them}, add --mcp-config ${shown}\n`,
    );
    return false;
  }
  const lines = config.servers.map((server) => `  ${server.name} ${describeServer(server)}\n`).join('');
  consent.stderr(`${shown} names ${count}:\n${lines}`);
  const answer = await consent.ask(`Start ${them}? (--mcp-config ${shown} says yes without asking) [y/N] `);
  if (/^y(es)?$/i.test(answer.trim())) return true;
  consent.stderr(`(the MCP servers of ${shown} not started)\n`);
  return false;
}

export interface ExecTools {
  /** The built-in tools and every started server's. */
  registry: ToolRegistry;
  /** Stops the servers. */
  close(): Promise<void>;
}

/** What the run's commands run in: its approval mode, its sandbox choice, its workspace folder. */
export interface ExecMcpSandbox {
  approve: ApprovalMode;
  sandbox: SandboxChoice;
  roots: readonly string[];
}

/** Starts `config`'s servers; each skipped or failed one, and each started one, is a line on `log`. */
export async function startExecTools(
  config: McpConfig,
  log: (line: string) => void,
  where: ExecMcpSandbox,
  options: { callTimeoutMs?: number } = {},
): Promise<ExecTools> {
  for (const line of config.skipped) log(line);
  if (config.servers.length === 0) return { registry: BUILTIN_TOOLS, close: () => Promise.resolve() };
  // Where the run's commands go (execSandbox.ts reads the same): full access, a sandbox, or none here.
  const sandbox = mcpSandbox(sandboxInForce(where.approve, where.sandbox), where.sandbox.support, where.roots);
  if (sandbox.kind === 'confined' && config.servers.some((server) => server.type === 'stdio'))
    log('MCP servers run in the sandbox: workspace-write, network on');
  // The MCP client (the SDK with its schemas and ajv) is loaded only when there is a server to start: most
  // runs have none, and loading it would cost each of them a good part of exec's start.
  const { startMcpServers } = await import('../../mcp/mcpServers');
  const servers = await startMcpServers(config.servers, { log, reserved: BUILTIN_TOOLS.names, sandbox, ...options });
  for (const server of servers.servers)
    if (server.error === undefined)
      log(`MCP server '${server.name}': ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`);
  return { registry: BUILTIN_TOOLS.with(servers.tools), close: () => servers.close() };
}
