import * as vscode from 'vscode';
import {
  ApprovalCache,
  type ApprovalMode,
  type ApprovalSources,
  type ResolvedApproval,
  stricter,
} from '../../agent/activation';

// The window's approval mode, as every reader takes it (the chat, the API's tasks, inline edits, plan mode):
// the user's choice in the composer, kept in the workspace's state where a repository cannot write it, else
// the user's own `loopwire.approval`, else the default: `auto` where this machine's OS sandbox works, `ask`
// where it does not (said by the session, which probes the sandbox: activation does not). A workspace's value (a cloned repository's
// .vscode/settings.json) may only make it stricter: a looser one is not followed, and the user is told once
// per workspace and value, with a way to allow it for this workspace behind a modal yes
// (src/agent/approvals/approvalSources.ts has the rules and their table of cases).

/** Workspace state: the mode picked in the composer for this workspace. */
const CHOSEN_KEY = 'loopwire.approvalChoice';
/** Workspace state: a looser workspace value the user allowed for this workspace (that value only). */
const ALLOWED_KEY = 'loopwire.approvalWorkspaceAllowed';
/** Workspace state: the looser workspace value the user was told about (told again only for another). */
const TOLD_KEY = 'loopwire.approvalWorkspaceTold';

const hasFolder = () => (vscode.workspace.workspaceFolders?.length ?? 0) > 0;

export class ApprovalChoice implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fired when the mode in force may have changed: a pick, an allow, a settings change. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The looser workspace values told about in this window. */
  private readonly told = new Set<ApprovalMode>();
  /** The mode in force, read once until a source changes: every call of a task asks for it. */
  private readonly cache = new ApprovalCache(() => this.sources());
  /**
   * The mode where nothing is set. `ask` until the session says (setFallback): finding whether the sandbox
   * works runs bwrap, which activation must not wait for, and before a session only the light bulb and
   * Ctrl+I's key read the mode, which treat `ask` and `auto` alike.
   */
  private fallback: () => ApprovalMode = () => 'ask';

  constructor(private readonly state: vscode.Memento) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('loopwire.approval')) return;
        this.cache.invalidate();
        this.changed.fire();
      }),
      // The first folder's settings are read; a trusted workspace's values may count where they did not.
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidated()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.invalidated()),
    );
  }

  /** The mode in force now; a looser workspace value it passed over is said once (without taking the focus). */
  current(): ResolvedApproval {
    const resolved = this.resolve();
    if (resolved.ignored !== undefined) void this.tell(resolved.ignored);
    return resolved;
  }

  mode(): ApprovalMode {
    return this.current().mode;
  }

  /** The mode in force, saying nothing: for the light bulb and a context key, read before any task. */
  peek(): ApprovalMode {
    return this.resolve().mode;
  }

  /**
   * The composer's pick. With a folder open it is kept in the workspace's state (the workspace's settings are
   * the repository's); with none, in the user's settings. A stricter workspace value stays in force: the user
   * may remove it from the workspace's settings (a modal yes).
   */
  async choose(mode: ApprovalMode): Promise<void> {
    if (!hasFolder()) {
      await vscode.workspace.getConfiguration('loopwire').update('approval', mode, vscode.ConfigurationTarget.Global);
      return;
    }
    await this.state.update(CHOSEN_KEY, mode);
    this.invalidated();
    const resolved = this.resolve();
    if (resolved.source === 'workspace' && stricter(resolved.mode, mode)) await this.offerRemoval(resolved.mode, mode);
  }

  /** The mode where nothing is set, from now on (read when a source changes, as the others are). */
  setFallback(fallback: () => ApprovalMode): void {
    this.fallback = fallback;
    this.invalidated();
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** A source changed (the workspace's state, the folders, the trust): read again, and tell the readers. */
  private invalidated(): void {
    this.cache.invalidate();
    this.changed.fire();
  }

  private resolve(): ResolvedApproval {
    return this.cache.get();
  }

  private sources(): ApprovalSources {
    const inspected = vscode.workspace
      .getConfiguration('loopwire', vscode.workspace.workspaceFolders?.[0])
      .inspect<unknown>('approval');
    const folderOpen = hasFolder();
    return {
      chosen: folderOpen ? this.state.get<unknown>(CHOSEN_KEY) : undefined,
      user: inspected?.globalValue,
      workspace: inspected?.workspaceValue,
      folder: inspected?.workspaceFolderValue,
      allowed: folderOpen ? this.state.get<unknown>(ALLOWED_KEY) : undefined,
      fallback: this.fallback(),
    };
  }

  /** Says once per workspace and value that its looser approval mode is not followed, offering to allow it. */
  private async tell(ignored: ApprovalMode): Promise<void> {
    // Marked at once, in memory too: every call of a task reads the mode, and the state is written later.
    if (this.told.has(ignored) || this.state.get<unknown>(TOLD_KEY) === ignored) return;
    this.told.add(ignored);
    void this.state.update(TOLD_KEY, ignored);
    const allow = vscode.l10n.t('Allow for This Workspace…');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'This workspace\'s settings set loopwire.approval to "{0}", looser than yours ("{1}"). A repository cannot loosen approvals: Loopwire keeps "{1}".',
        ignored,
        this.resolve().mode,
      ),
      allow,
    );
    if (answer === allow) await this.confirmAllow(ignored);
  }

  private async confirmAllow(value: ApprovalMode): Promise<void> {
    const yes = vscode.l10n.t('Allow');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Follow this workspace\'s approval mode "{0}"?', value),
      {
        modal: true,
        detail:
          value === 'all'
            ? vscode.l10n.t(
                "Edits, tasks and commands will run without asking in this workspace, as its settings (the repository's .vscode/settings.json or .code-workspace file) say. Allow it only for a repository you trust.",
              )
            : vscode.l10n.t(
                "This workspace's settings (the repository's .vscode/settings.json or .code-workspace file) will choose the approval mode here. Allow it only for a repository you trust.",
              ),
      },
      yes,
    );
    if (answer !== yes) return;
    await this.state.update(ALLOWED_KEY, value);
    this.cache.invalidate();
    // An earlier pick in the composer would come first: the yes is to follow the workspace from now on.
    await this.state.update(CHOSEN_KEY, undefined);
    this.invalidated();
  }

  /** A pick looser than the workspace's stricter value: remove that value from the workspace's settings? */
  private async offerRemoval(inForce: ApprovalMode, picked: ApprovalMode): Promise<void> {
    const remove = vscode.l10n.t('Remove It');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t(
        'This workspace\'s settings set loopwire.approval to "{0}", stricter than "{1}": "{0}" stays in force. Remove it from the workspace\'s settings?',
        inForce,
        picked,
      ),
      { modal: true },
      remove,
    );
    if (answer !== remove) return;
    // The workspace's settings: a single folder's .vscode/settings.json, or the .code-workspace file. A window
    // setting cannot be written to one folder's settings (VS Code refuses).
    await vscode.workspace
      .getConfiguration('loopwire')
      .update('approval', undefined, vscode.ConfigurationTarget.Workspace);
  }
}
