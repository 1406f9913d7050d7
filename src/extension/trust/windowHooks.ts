import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  AgentHooks,
  type ApprovalPolicy,
  type HookSpec,
  type Transcript,
  readHookFiles,
  userHookFiles,
  workspaceHookFiles,
} from '../../agent';
import { HookConsent, type HookFileQuestion } from './hookConsent';

// The window's hooks (src/agent/hooks; docs/customize.md, Hooks), read for each chat agent as it starts: the
// user's own (`~/.claude/settings.json`, `$XDG_CONFIG_HOME/loopwire/hooks.json`), run as they are, then each
// workspace folder's `.claude/settings.json` and `.github/hooks/*.json`, run only after the user's yes to that
// file as it is now (hookConsent.ts; a modal here, as for `.vscode/mcp.json` servers). They run as in
// `loopwire exec`: in the sandbox (workspace-write, network on) while the chat's commands are confined.

export class WindowHooks {
  private readonly consent: HookConsent;
  /** Lines already logged about the user's files. */
  private readonly said = new Set<string>();

  constructor(
    state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.consent = new HookConsent({
      state,
      ask: (question) => this.ask(question),
      trusted: () => vscode.workspace.isTrusted,
      log: (line) => log.warn(line),
    });
  }

  /** The hooks of an agent on `transcript` under `approvals`, as its spec takes them; `{}` where there are none. */
  async forAgent(transcript: Transcript, approvals: ApprovalPolicy): Promise<{ hooks?: AgentHooks }> {
    const report = (line: string) => {
      if (this.said.has(line)) return;
      this.said.add(line);
      this.log.warn(line);
    };
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const files = folders.flatMap((folder) =>
      workspaceHookFiles(folder.uri.fsPath).map((file) => ({ file, label: vscode.workspace.asRelativePath(file) })),
    );
    const specs: HookSpec[] = [
      ...readHookFiles(userHookFiles(os.homedir(), process.env), report),
      ...(await this.consent.allowed(files)),
    ];
    if (specs.length === 0) return {};
    const hooks = new AgentHooks(specs, {
      sessionId: transcript.header.id,
      transcriptPath: transcript.file ?? '',
      cwd: folders[0]?.uri.fsPath ?? os.homedir(),
      mode: () => approvals.mode?.() ?? 'ask',
      confined: () => approvals.sandbox?.() !== undefined,
    });
    return { hooks };
  }

  /** The modal; true only for Run Them. A host that cannot show it (a test host refuses modals) means no. */
  private async ask({ label, specs }: HookFileQuestion): Promise<boolean> {
    const lines = specs.map((spec) => `${spec.event}${spec.matcher ? ` (${spec.matcher})` : ''}: ${spec.command}`);
    const detail = `${lines.join('\n')}\n\n${vscode.l10n.t(
      'The file came with the workspace: each hook is a program Loopwire runs at that point of a task, in the sandbox where there is one. Run them only if you trust what they run. Loopwire remembers a yes for this workspace until the file changes.',
    )}`;
    const run = vscode.l10n.t('Run Them');
    try {
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Run the hooks that {0} sets up?', label),
        { modal: true, detail },
        run,
      );
      return choice === run;
    } catch (error) {
      this.log.warn(`The question to run the hooks of ${label} could not be shown: ${String(error)}`);
      return false;
    }
  }
}
