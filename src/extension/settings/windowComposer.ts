import * as vscode from 'vscode';
import { APPROVAL_MODES, endpointOrigin, isApprovalMode } from '../../agent/activation';
import { ENDPOINT_MODELS_KEY } from '../endpoint/endpointCheck';
import {
  DEFAULT_MODEL,
  ReasoningEffort,
  findProjectInstructions,
  modelProfile,
  type ProjectInstructions,
} from '../../agent';
import type { ComposerChoices, HostMessage, InstructionsInfo } from '../../protocol/chatView';
import type { ComposerPort, ChooseMessage } from '../chat/composer/composerPort';
import type { ApprovalChoice } from '../trust/approvalChoice';
import { readSettings } from './settings';
import { PickerWrites } from './pickerWrites';
import { noSandboxText } from '../trust/windowSandbox';
import { WindowAgents } from './windowAgents';

// The window's side of the composer's pickers and of the project instructions' line (chat/composer/composerPort.ts).
//
// The model and effort pickers write their setting for this workspace (ConfigurationTarget.Workspace: in a
// single-folder window that is the folder's .vscode/settings.json, in a multi-root one its .code-workspace
// file; with no folder open, the user's settings). The approval picker's choice is kept where a repository
// cannot write it (approvalChoice.ts): a repository's settings may make the mode stricter, never looser. The
// agent reads the model and effort before every request and the approval mode at every call, so the choice
// applies to the next one without a new chat or socket.
//
// The instructions are read at each task's start (and shown again when a file changes or trust is given).
// An untrusted workspace's files are shown but not sent — a repository someone else wrote must not steer
// the agent unasked — until the user allows it for this workspace (kept in workspace state).

/** Workspace state: the user allowed this untrusted workspace's instruction files to be sent. */
export const ALLOW_UNTRUSTED_KEY = 'loopwire.sendUntrustedInstructions';
/** Global state: models picked lately, newest first, offered beside the default and the current one. */
const RECENT_MODELS_KEY = 'loopwire.recentModels';
const RECENT_MODELS = 5;
/** Workspace state: the approval mode before plan mode was picked, which Implement goes back to. */
const BEFORE_PLAN_KEY = 'loopwire.approvalBeforePlan';
/** Global state: why this machine has no sandbox, as the user was told it (told again only for another reason). */
const NO_SANDBOX_TOLD_KEY = 'loopwire.noSandboxTold';

/** The settings the model and effort pickers write (the approval picker's choice is approvalChoice.ts'). */
const SETTING: Record<Exclude<ChooseMessage['choice'], 'approval' | 'agent'>, string> = {
  model: 'model',
  effort: 'reasoningEffort',
};

/** What each approval mode lets run, for the quick pick (as the setting's own descriptions say it). */
const APPROVAL_DETAILS = (): Record<(typeof APPROVAL_MODES)[number], string> => ({
  auto: vscode.l10n.t(
    'Edits, tasks and commands run without asking inside the sandbox; you are asked only to leave it.',
  ),
  ask: vscode.l10n.t('Ask before each edit, task and command that does more than read.'),
  all: vscode.l10n.t('Edits, tasks and commands run without asking.'),
  'read-only': vscode.l10n.t('Edits, tasks and commands that do more than read are declined.'),
  plan: vscode.l10n.t('Plan mode: read, search and make a plan; nothing is changed until you choose Implement.'),
});

const firstFolder = () => vscode.workspace.workspaceFolders?.[0];

export class WindowComposer implements ComposerPort, vscode.Disposable {
  private post: ((message: HostMessage) => void) | undefined;
  /** The files the line shows now: the only ones a click may open. */
  private shown: readonly string[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The pickers' writes, in the order picked; the choices are sent when the last is done (pickerWrites.ts). */
  private readonly writes = new PickerWrites(() => this.sendChoices());
  /** The agent picker's custom agents and pick (windowAgents.ts), which the chat's agent reads per request. */
  readonly agents: WindowAgents;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly approvals: ApprovalChoice,
    log?: vscode.LogOutputChannel,
  ) {
    const allowed = () =>
      vscode.workspace.isTrusted || this.context.workspaceState.get<boolean>(ALLOW_UNTRUSTED_KEY) === true;
    this.agents = new WindowAgents(context, allowed, () => this.sendSettled(), log && ((line) => log.warn(line)));
    this.disposables.push(
      this.agents,
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (Object.values(SETTING).some((key) => event.affectsConfiguration(`loopwire.${key}`))) this.sendSettled();
      }),
      approvals.onDidChange(() => this.sendSettled()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.sendInstructions()),
    );
    // A file created, changed or deleted shows in the line at once; the model gets it at the next task.
    const watcher = vscode.workspace.createFileSystemWatcher('**/{AGENTS.md,.github/copilot-instructions.md}');
    const later = () => this.refreshSoon();
    this.disposables.push(watcher, watcher.onDidCreate(later), watcher.onDidChange(later), watcher.onDidDelete(later));
  }

  attach(post: (message: HostMessage) => void): void {
    this.post = post;
  }

  refresh(): void {
    this.sendChoices();
    void this.sendInstructions();
    this.tellNoSandbox();
  }

  /**
   * Where no sandbox works, the panel's first showing says so once on this machine (per reason): why, and how
   * to get one. The picker's Auto says it too, for as long as it lasts.
   */
  private tellNoSandbox(): void {
    const text = noSandboxText();
    if (text === undefined || this.context.globalState.get<unknown>(NO_SANDBOX_TOLD_KEY) === text) return;
    void this.context.globalState.update(NO_SANDBOX_TOLD_KEY, text);
    void vscode.window.showInformationMessage(text);
  }

  async choose(message: ChooseMessage): Promise<void> {
    if (message.choice === 'agent') return message.value === undefined ? undefined : this.agents.choose(message.value);
    let value = message.value;
    if (message.choice === 'model' && value === undefined) {
      value = await this.askModel();
      // Dismissed: the picker shows the model it had.
      if (value === undefined) return this.sendChoices();
    }
    if (value === undefined) return;
    if (message.choice === 'effort' && !ReasoningEffort.safeParse(value).success)
      throw new Error(`${value} is not a reasoning effort (${ReasoningEffort.options.join(', ')}).`);
    if (message.choice === 'approval' && !isApprovalMode(value))
      throw new Error(`${value} is not an approval mode (${APPROVAL_MODES.join(', ')}).`);
    // Auto without a sandbox would ask about everything while its name says it confines: not offered, not taken.
    const noSandbox = message.choice === 'approval' && value === 'auto' ? noSandboxText() : undefined;
    if (noSandbox !== undefined) {
      this.sendChoices(); // the picker shows the mode in force again
      throw new Error(noSandbox);
    }
    const chosen = value;
    const choice = message.choice;
    await this.writes.run(() => this.write(choice, chosen));
  }

  /** Other…: a model's name, asked in VS Code's input box (undefined: dismissed or left empty). */
  private async askModel(): Promise<string | undefined> {
    const value = (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('Loopwire: Model'),
        prompt: vscode.l10n.t('The model for this workspace, as the endpoint names it'),
        value: readSettings(firstFolder()).model ?? DEFAULT_MODEL,
        validateInput: (text) => (text.trim() === '' ? vscode.l10n.t('Name a model.') : undefined),
      })
    )?.trim();
    // The input box took the focus from the panel: it goes back there (the page puts it on the picker).
    void vscode.commands.executeCommand('loopwire.chat.focus');
    return value === '' ? undefined : value;
  }

  /** Writes one pick (checked by `choose`): the approval mode where it is kept, a model or effort setting. */
  private async write(choice: Exclude<ChooseMessage['choice'], 'agent'>, value: string): Promise<void> {
    if (choice === 'approval') {
      if (!isApprovalMode(value)) return;
      if (value === 'plan') await this.rememberBeforePlan();
      return this.approvals.choose(value);
    }
    if (choice === 'model') await this.remember(value);
    const target = vscode.workspace.workspaceFolders?.length
      ? vscode.ConfigurationTarget.Workspace
      : vscode.ConfigurationTarget.Global;
    await vscode.workspace.getConfiguration('loopwire').update(SETTING[choice], value, target);
  }

  async leavePlanMode(): Promise<void> {
    const before = this.context.workspaceState.get<unknown>(BEFORE_PLAN_KEY);
    const mode = isApprovalMode(before) && before !== 'plan' ? before : 'ask';
    await this.choose({ type: 'choose', choice: 'approval', value: mode });
  }

  /**
   * Loopwire: Choose Approval Mode… (the palette's way to the composer's picker, with no panel needed): the
   * modes in a quick pick, the one in force marked, and the pick kept as the picker keeps it.
   */
  async pickApproval(): Promise<void> {
    const { mode, source } = this.approvals.current();
    const inForce =
      source === 'workspace' ? vscode.l10n.t("in force: set by this workspace's settings") : vscode.l10n.t('in force');
    // Auto is offered only where it confines something.
    const offered = APPROVAL_MODES.filter((value) => value !== 'auto' || noSandboxText() === undefined);
    const items = offered.map((value) => ({
      label: value,
      description: value === mode ? inForce : undefined,
      detail: APPROVAL_DETAILS()[value],
      value,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Loopwire: Approval Mode'),
      placeHolder: vscode.l10n.t('What runs without asking in this workspace'),
    });
    if (picked) await this.choose({ type: 'choose', choice: 'approval', value: picked.value });
  }

  /** Plan mode is picked: the mode it replaces is what Implement goes back to (kept across reloads). */
  private async rememberBeforePlan(): Promise<void> {
    const before = this.approvals.mode();
    if (before !== 'plan') await this.context.workspaceState.update(BEFORE_PLAN_KEY, before);
  }

  async openInstructions(path: string): Promise<void> {
    if (!this.shown.includes(path)) throw new Error(`${path} is not one of the project instruction files found.`);
    await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
  }

  async allowInstructions(): Promise<void> {
    await this.context.workspaceState.update(ALLOW_UNTRUSTED_KEY, true);
    await this.sendInstructions();
    // The workspace's custom agents may be offered now, as its instruction files are sent.
    await this.agents.reload();
  }

  /**
   * The agent's source of project instructions, read at each task's start: the files found (shown in the
   * line), or undefined while an untrusted workspace has not allowed them.
   */
  async projectInstructions(): Promise<ProjectInstructions | undefined> {
    const { found, info } = await this.read();
    this.show(info);
    return info.sent ? found : undefined;
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }

  private async read(): Promise<{ found: ProjectInstructions; info: InstructionsInfo }> {
    const folders = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map((folder) => folder.uri.fsPath);
    const found = await findProjectInstructions(folders);
    const untrusted = !vscode.workspace.isTrusted;
    const allowed = !untrusted || this.context.workspaceState.get<boolean>(ALLOW_UNTRUSTED_KEY) === true;
    const info: InstructionsInfo = {
      files: found.files.map((file) => ({ label: file.label, path: file.path, cut: file.sentBytes < file.bytes })),
      sent: allowed && found.files.length > 0,
      untrusted,
    };
    return { found, info };
  }

  private async sendInstructions(): Promise<void> {
    this.show((await this.read()).info);
  }

  private show(info: InstructionsInfo): void {
    this.shown = info.files.map((file) => file.path);
    this.post?.({ type: 'instructions', instructions: info });
  }

  private refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.sendInstructions(), 200);
  }

  /** The choices, unless a picker's write is still queued (its end sends them). */
  private sendSettled(): void {
    if (!this.writes.busy) this.sendChoices();
  }

  private sendChoices(): void {
    this.post?.({ type: 'choices', choices: this.choices() });
  }

  private choices(): ComposerChoices {
    const settings = readSettings(firstFolder());
    const model = settings.model ?? DEFAULT_MODEL;
    const models = [DEFAULT_MODEL, model, ...this.recentModels(), ...this.endpointModels(settings.endpoint)];
    const effort = ReasoningEffort.catch('default').parse(settings.modelOptions.reasoningEffort);
    const defaultEffort = modelProfile(model).effort;
    return {
      model,
      models: [...new Set(models)],
      effort,
      efforts: [...ReasoningEffort.options],
      ...(defaultEffort === undefined ? {} : { defaultEffort }),
      ...(modelProfile(model).images ? {} : { images: false }),
      ...this.approval(),
      ...this.agents.choices(),
    };
  }

  /** The approval picker's mode in force and its note; Auto's title where this machine has no sandbox. */
  private approval(): Pick<ComposerChoices, 'approval' | 'approvalNote' | 'noSandbox'> {
    const noSandbox = noSandboxText();
    const own = this.approvalInForce();
    // Auto in force with nothing to confine in (the user's setting, another machine's pick): it asks as Ask does.
    const note =
      own.approval === 'auto' && noSandbox !== undefined ? (own.approvalNote ?? noSandbox) : own.approvalNote;
    return { ...own, ...(note === undefined ? {} : { approvalNote: note }), ...(noSandbox ? { noSandbox } : {}) };
  }

  /** The mode in force for the approval picker, and a word where it is not the user's own pick. */
  private approvalInForce(): Pick<ComposerChoices, 'approval' | 'approvalNote'> {
    const { mode, source, ignored } = this.approvals.current();
    const note =
      source === 'workspace'
        ? vscode.l10n.t("Set by this workspace's settings")
        : ignored !== undefined
          ? vscode.l10n.t('This workspace\'s settings say "{0}": not followed', ignored)
          : undefined;
    return { approval: mode, ...(note === undefined ? {} : { approvalNote: note }) };
  }

  private async remember(model: string): Promise<void> {
    const list = [...new Set([model, ...this.recentModels()])].slice(0, RECENT_MODELS);
    await this.context.globalState.update(RECENT_MODELS_KEY, list);
  }

  /** The models the endpoint listed when Select Endpoint… checked it (none for the embedded backend). */
  private endpointModels(endpoint: string): string[] {
    const origin = endpointOrigin(endpoint);
    const known = this.context.globalState.get<Record<string, unknown>>(ENDPOINT_MODELS_KEY, {});
    const listed = origin === undefined ? undefined : known[origin];
    return Array.isArray(listed) ? listed.filter((name: unknown): name is string => typeof name === 'string') : [];
  }

  /** The models picked lately, as kept (anything else in the state is passed over). */
  private recentModels(): string[] {
    const recent = this.context.globalState.get<unknown>(RECENT_MODELS_KEY);
    return Array.isArray(recent)
      ? recent.filter((name: unknown): name is string => typeof name === 'string' && name !== '')
      : [];
  }
}
