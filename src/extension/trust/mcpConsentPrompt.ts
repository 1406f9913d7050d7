import * as vscode from 'vscode';
import type { McpServerConfig } from '../../mcp';
import { describeServer, serverFingerprint } from '../../mcp/mcpConsent';

// The window's yes or no to each MCP server a workspace folder's `.vscode/mcp.json` names, asked with a
// modal before the server first starts (a repository's file is a stranger's input; a stdio server runs with
// the user's rights). A yes is kept in the workspace's state under the server's name with a fingerprint of
// what it runs, so a changed command is asked about again; a no is kept for this window only, so that each
// task does not ask again, while the next window may. One question per server, not one for the whole file:
// the user can start the server they know and leave the odd one out, and a change to one server asks only
// about that one.

/** A server and the mcp.json that names it. */
export interface WorkspaceServer {
  server: McpServerConfig;
  file: string;
}

/** Where the yeses are kept: server name → the fingerprint that was allowed. */
const ALLOWED_KEY = 'loopwire.mcp.allowedServers';

export class McpConsent {
  /** `name\0fingerprint` of each server the user said no to in this window. */
  private readonly declined = new Set<string>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The servers the user allows, each not yet answered asked about in turn (one modal at a time). */
  async allowed(servers: readonly WorkspaceServer[]): Promise<McpServerConfig[]> {
    const allowed: McpServerConfig[] = [];
    for (const entry of servers) if (await this.allows(entry)) allowed.push(entry.server);
    return allowed;
  }

  /** Whether any of `servers` would raise a question now (neither allowed nor declined in this window). */
  unanswered(servers: readonly WorkspaceServer[]): boolean {
    return servers.some(({ server }) => {
      const fingerprint = serverFingerprint(server);
      return this.stored()[server.name] !== fingerprint && !this.declined.has(`${server.name}\0${fingerprint}`);
    });
  }

  private async allows({ server, file }: WorkspaceServer): Promise<boolean> {
    const fingerprint = serverFingerprint(server);
    if (this.stored()[server.name] === fingerprint) return true;
    const key = `${server.name}\0${fingerprint}`;
    const where = vscode.workspace.asRelativePath(file);
    if (!this.declined.has(key)) {
      if (await this.ask(server, where)) {
        await this.state.update(ALLOWED_KEY, { ...this.stored(), [server.name]: fingerprint });
        return true;
      }
      this.declined.add(key);
    }
    this.log.warn(
      `MCP server '${server.name}' (${where}) not started: you did not allow it to start in this window ` +
        '(the next window, or a change to its command, asks again).',
    );
    return false;
  }

  /** The yeses kept for this workspace; anything else found under the key counts as none. */
  private stored(): Record<string, string> {
    const value = this.state.get<unknown>(ALLOWED_KEY);
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  }

  /** The modal; true only for Start It. A host that cannot show it (a test host refuses modals) means no. */
  private async ask(server: McpServerConfig, where: string): Promise<boolean> {
    const detail = `'${server.name}' ${describeServer(server)}\n\n${vscode.l10n.t(
      'The file came with the workspace: start the server only if you trust what it runs. Loopwire remembers a yes for this workspace until the server’s command changes.',
    )}`;
    const start = vscode.l10n.t('Start It');
    try {
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t("Start the MCP server '{0}' that {1} names?", server.name, where),
        { modal: true, detail },
        start,
      );
      return choice === start;
    } catch (error) {
      this.log.warn(`The question to start MCP server '${server.name}' could not be shown: ${String(error)}`);
      return false;
    }
  }
}
