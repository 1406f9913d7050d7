import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ApprovalMode } from '../../agent';
import {
  McpConfigError,
  type McpSandbox,
  type McpServers,
  mcpSandbox,
  readMcpConfig,
  startMcpServers,
  workspaceMcpFile,
} from '../../mcp';
import { sandboxSupport } from '../../sandbox';
import { BUILTIN_TOOLS, type ToolDefinition, type ToolRegistry } from '../../tools';
import { editorToolDefinitions, lmToolsApi } from './editorTools';
import { McpConsent, type WorkspaceServer } from '../trust/mcpConsentPrompt';
import { readSettings } from '../settings/settings';
import { machineSandbox } from '../trust/windowSandbox';
import { WindowHooks } from '../trust/windowHooks';

// The tools a window's agents get besides Loopwire's own: those of the MCP servers each folder's
// `.vscode/mcp.json` names (started for the first agent, started again for the next agent after a file
// changed, stopped with the window's runtime), and, where `loopwire.externalTools` is `ask` and this VS Code
// has `vscode.lm.tools`, the editor's (editorTools.ts). An untrusted workspace gets neither: a workspace file
// must not start programs, nor hand the model other extensions' tools, before the user trusts it. A trusted
// one's servers still start only after the user's yes to each (mcpConsentPrompt.ts): trusting a folder's
// code is not agreeing to run whatever its mcp.json names, unasked, when the panel opens. A stdio server runs
// in the OS sandbox (workspace-write on the workspace folders, network on; src/mcp/mcpSandbox.ts) unless the
// window's approval mode gives commands full access (`all`). The servers are the window's, shared by its
// agents, so the window's mode decides, not one task's; a change into or out of `all` starts them again.

export class WindowTools implements vscode.Disposable {
  private mcp: Promise<McpServers | undefined> | undefined;
  /** The mcp.json files as they were when the servers started: a change starts them again. */
  private mcpFiles = '';
  /** Where they run (in the sandbox or not): a change of that starts them again too. */
  private mcpSandboxKind: McpSandbox['kind'] | undefined;
  private disposed = false;
  private readonly consent: McpConsent;
  /**
   * The hooks run around the tool calls (trust/windowHooks.ts): programs a workspace names, as its servers
   * are, run after the same kind of yes.
   */
  readonly hooks: WindowHooks;

  /** `workspaceState` keeps the user's yes to each server, for this workspace. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    workspaceState: vscode.Memento,
    /** The window's approval mode in force: what its servers run in follows it. */
    private readonly mode: () => ApprovalMode,
  ) {
    this.consent = new McpConsent(workspaceState, log);
    this.hooks = new WindowHooks(workspaceState, log);
  }

  /**
   * The tools an agent starting now gets: the built-in ones, the MCP servers', the editor's. With `ask: false`
   * (ahead of a first prompt, as the panel shows) a server not yet answered is neither asked about nor
   * started: the question waits for the first task, so that opening the panel raises none.
   */
  async registry(ask = true): Promise<ToolRegistry> {
    if (!vscode.workspace.isTrusted) return BUILTIN_TOOLS;
    if (!ask && !this.mcp && this.consent.unanswered(await this.workspaceServers())) return BUILTIN_TOOLS;
    const files = mcpFilesNow();
    const sandbox = this.sandbox();
    if (this.mcp && (files !== this.mcpFiles || sandbox.kind !== this.mcpSandboxKind)) {
      this.log.info(
        files !== this.mcpFiles
          ? '.vscode/mcp.json changed: its MCP servers start again.'
          : `The approval mode changed: the MCP servers start again, ${sandbox.kind === 'confined' ? 'in' : 'outside'} the sandbox.`,
      );
      await this.stopMcp();
    }
    this.mcpFiles = files;
    this.mcpSandboxKind = sandbox.kind;
    this.mcp ??= this.startMcp(sandbox);
    const servers = await this.mcp;
    const mcpTools = servers?.tools ?? [];
    const started = (servers?.servers ?? []).filter((server) => server.error === undefined).map((s) => s.name);
    return BUILTIN_TOOLS.with([...mcpTools, ...this.editorTools(mcpTools, started)]);
  }

  dispose(): void {
    this.disposed = true;
    void this.stopMcp();
  }

  /** The editor's tools, read anew for each agent (extensions come and go); none where the API is missing. */
  private editorTools(mcpTools: readonly ToolDefinition[], mcpServers: readonly string[]): ToolDefinition[] {
    if (readSettings(vscode.workspace.workspaceFolders?.[0]).externalTools === 'off') return [];
    const api = lmToolsApi(vscode.lm);
    if (!api) return [];
    const taken = new Set([...BUILTIN_TOOLS.names, ...mcpTools.map((tool) => tool.name)]);
    return editorToolDefinitions(api, { taken, mcpServers, log: (line) => this.log.info(line) });
  }

  /** Where the window's stdio servers run now: as its commands, in the sandbox unless they have full access. */
  private sandbox(): McpSandbox {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    return mcpSandbox(machineSandbox(this.mode)?.(), sandboxSupport(), folders);
  }

  /** Every folder's servers that the user allows, started side by side. */
  private async startMcp(sandbox: McpSandbox): Promise<McpServers | undefined> {
    const named = await this.workspaceServers();
    const configs = named.length === 0 || this.disposed ? [] : await this.consent.allowed(named);
    if (configs.length === 0 || this.disposed) return undefined;
    const servers = await startMcpServers(configs, {
      log: (line) => this.log.warn(line),
      reserved: BUILTIN_TOOLS.names,
      sandbox,
    });
    for (const server of servers.servers)
      if (server.error === undefined) this.log.info(`MCP server '${server.name}': ${server.tools.join(', ')}`);
    if (this.disposed) await servers.close();
    return servers;
  }

  /** Every folder's servers (the first folder's wins a name two give), each with the file that names it. */
  private async workspaceServers(): Promise<WorkspaceServer[]> {
    const named: WorkspaceServer[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const file = workspaceMcpFile(folder.uri.fsPath);
      try {
        const config = await readMcpConfig(file, { workspaceFolder: folder.uri.fsPath });
        for (const line of config?.skipped ?? []) this.log.warn(line);
        for (const server of config?.servers ?? []) {
          if (named.some((known) => known.server.name === server.name))
            this.log.warn(`${file}: MCP server '${server.name}' skipped: another folder names a server so.`);
          else named.push({ server, file });
        }
      } catch (error) {
        if (!(error instanceof McpConfigError)) throw error;
        this.log.warn(error.message);
      }
    }
    return named;
  }

  private async stopMcp(): Promise<void> {
    const running = this.mcp;
    this.mcp = undefined;
    await (await running?.catch(() => undefined))?.close();
  }
}

/** Each folder's mcp.json as it is now (its path, size and time of change): what tells a change. */
function mcpFilesNow(): string {
  return (vscode.workspace.workspaceFolders ?? [])
    .map((folder) => {
      const file = workspaceMcpFile(folder.uri.fsPath);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      return `${file}:${stat ? `${stat.size}:${stat.mtimeMs}` : '-'}`;
    })
    .join('\n');
}
