import './l10nSetup';
import { t } from '@vscode/l10n';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  type Agent,
  type AgentEvent,
  type AgentSpec,
  type ApprovalMode,
  type ApprovalPolicy,
  type FrontChoices,
  type Transcript,
  approveAll,
  modelOptionsFrom,
  newTranscript,
  withCommandRules,
} from '../agent';
import {
  type BackgroundCommands,
  ReadLedger,
  type ToolRegistry,
  type ToolResult,
  runToolCall,
  takesFreeform,
  toolsAvailable,
} from '../tools';
import { ApprovalChoice } from './trust/approvalChoice';
import { windowEnvironment } from './runtime/environmentFacts';
import { defaultApproval } from './trust/windowSandbox';
import { commandRulesFor, keepAllowRule } from './trust/commandRulesSetting';
import { WindowTools } from './runtime/externalTools';
import type { ChatActivity } from './chat/chatActivity';
import type { ChatController } from './chat/chatController';
import type { ChatDeck } from './chat/deck/chatDeck';
import { windowChats } from './chat/window/windowChats';
import { InlineController } from './inline/inlineController';
import { inlineTools } from './inline/inlineWorkspace';
import { openWindowWorkspace } from './runtime/windowWorkspace';
import type { Workspace } from '../workspace';
import type { EndpointAccess } from './endpoint/endpointAccess';
import { ENDPOINT_MODELS_KEY, type EndpointCheck, checkEndpoint } from './endpoint/endpointCheck';
import { WindowBackend } from './endpoint/windowBackend';
import { folderOf, readSettings, taskFolder } from './settings/settings';
import { modelChoices } from './runtime/modelChoices';
import { inlineSpec } from './runtime/inlineSpec';
import { WindowChatContext } from './chat/window/chatContext';
import { WindowComposer } from './settings/windowComposer';
import { WindowSkills } from './settings/windowSkills';
import { windowSlash } from './chat/window/windowSlash';
import { TaskQueue } from './runtime/taskQueue';
import { stopwatch } from './runtime/stopwatch';
import { type TaskOutcome, type TaskWindow, runWindowTask } from './runtime/windowTask';
import { commandLine } from './runtime/commandLine';

// One window's Loopwire runtime (the entry of dist/runtime.js): the workspace adapter, the backend with its
// one socket shared by every task of the window (windowBackend.ts), the API's tools and tasks, and the chat
// panel's conversation (windowChatHost.ts). Created on first use, so activation costs nothing; tasks on the
// default lane run one at a time.

/** A chat's own lane of the socket, by its id; none for the chat on the default lane. */
const onLane = (id: string | undefined) => (id === undefined ? undefined : { id });

export type { TaskOutcome };

/** The window's folders, for a transcript's header. */
const folderPaths = () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath).join(', ');

export class WindowRuntime implements vscode.Disposable {
  private workspace: Promise<Workspace> | undefined;
  private readonly backend: WindowBackend;
  /** The MCP servers' and the editor's tools, beside the built-in ones. */
  private readonly tools: WindowTools;
  private readonly reads = new ReadLedger();
  private readonly queue = new TaskQueue();
  private readonly listeners = new Set<(event: AgentEvent) => void>();

  private readonly disposables: vscode.Disposable[] = [];
  private deck: ChatDeck | undefined;
  private inlineController: InlineController | undefined;
  /** The composer's pickers and the project instructions (AGENTS.md), read at each task's start. */
  private readonly composer: WindowComposer;
  private readonly skills: WindowSkills;
  /** The approval mode in force: the user's, which a workspace's settings may only make stricter. */
  private readonly approvals: ApprovalChoice;
  /** The composer's attachments: the `@` picker's file search, `@selection`, `@terminal`'s last command. */
  private readonly chatContext = new WindowChatContext(() => this.adapter());
  /** Whether an agent was started yet: the first one's start is timed in the log. */
  private agentsStarted = 0;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly access: EndpointAccess,
    /** Told when the chat waits for an approval or a task ends (the window's notifications and badge). */
    private readonly activity?: ChatActivity,
    /** The window's, made at activation (the light bulb and Ctrl+I read it before a session); else our own. */
    approvals?: ApprovalChoice,
  ) {
    this.backend = new WindowBackend(access, log, this.queue, (event) => this.emit(event));
    this.tools = new WindowTools(log, context.workspaceState, () => this.approvals.mode());
    this.approvals = approvals ?? new ApprovalChoice(context.workspaceState);
    this.approvals.setFallback(defaultApproval);
    this.composer = new WindowComposer(context, this.approvals, log);
    this.skills = new WindowSkills(context, log);
    this.disposables.push(this.tools, this.composer, ...(approvals ? [] : [this.approvals]));
  }

  /** Every agent event of the session (the chat panel and the status bar listen here). */
  onEvent(listener: (event: AgentEvent) => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  /** The approval mode in force (approvalChoice.ts): the chat's, the API's tasks' and the inline edits'. */
  approvalMode(): ApprovalMode {
    return this.approvals.mode();
  }

  /** Loopwire: Choose Approval Mode…: a quick pick, kept as the composer's picker keeps its choice. */
  chooseApproval(): Promise<void> {
    return this.composer.pickApproval();
  }

  /** The tools this window can run: write and task tools only in a trusted workspace. */
  toolNames(): string[] {
    return toolsAvailable({ trusted: vscode.workspace.isTrusted });
  }

  async runTool(name: string, args: unknown): Promise<ToolResult> {
    const workspace = await this.adapter();
    const call =
      takesFreeform(name) && typeof args === 'string'
        ? { kind: 'custom' as const, name, input: args }
        : { kind: 'function' as const, name, arguments: JSON.stringify(args ?? {}) };
    return runToolCall(call, { workspace, reads: this.reads });
  }

  /** Runs one task to its end on the window's socket (after any task already running). */
  runTask(prompt: string, approve?: Exclude<ApprovalMode, 'ask'>, signal?: AbortSignal): Promise<TaskOutcome> {
    const window: TaskWindow = {
      newTranscript: (model) => this.newTranscript(model),
      agentFor: (transcript, approvals, emit, commands) =>
        this.agentFor(transcript, approvals, emit, undefined, undefined, undefined, undefined, commands),
      commandEvent: (event) => this.log.info(`task: ${commandLine(event)}`),
      approvalMode: () => this.approvals.mode(),
      log: (line) => this.log.info(line),
    };
    return this.queue.run(() => runWindowTask(window, prompt, approve, signal));
  }

  /**
   * A key or the endpoint changed (Set API Key…, Select Endpoint…): the backend and its socket are built again
   * once the running task is over, so the next request, a Retry's included, carries the new ones.
   */
  endpointChanged(): void {
    this.backend.replace();
  }

  /**
   * Select Endpoint…'s last step: whether the endpoint answers and takes the key (its model list, kept for the
   * composer's picker), then whether its socket opens, on the session the next task uses.
   */
  async checkEndpoint(): Promise<EndpointCheck> {
    const endpoint = await this.access.resolve(true);
    if (!endpoint || endpoint.endpoint === 'embedded') return { ok: true, text: 'Using the built-in offline backend.' };
    const settings = readSettings(vscode.workspace.workspaceFolders?.[0]);
    const check = await checkEndpoint(endpoint, settings.transport, async () => {
      const session = await this.backend.session(settings);
      return (await session?.transport.preconnect()) ?? false;
    });
    if (check.ok && check.origin !== undefined) {
      const known = this.context.globalState.get<Record<string, unknown>>(ENDPOINT_MODELS_KEY, {});
      await this.context.globalState.update(ENDPOINT_MODELS_KEY, { ...known, [check.origin]: check.models });
    }
    // Said in the conversation too, where the user will send the next prompt (the notification fades).
    this.deck?.shown.model.notice(check.ok ? 'info' : 'error', check.text);
    return check;
  }

  dispose(): void {
    // Before the chat's last save: an inline edit still waiting for Keep or Undo leaves its entry there.
    this.inlineController?.dispose();
    this.deck?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    this.backend.dispose();
  }

  /** The window's workspace (windowWorkspace.ts), opened once; a failed opening is tried again next time. */
  private adapter(): Promise<Workspace> {
    this.workspace ??= openWindowWorkspace(this.log, (command, run) => this.chatContext.commandFinished(command, run));
    this.workspace.catch(() => (this.workspace = undefined));
    return this.workspace;
  }

  /** A new transcript in the window's storage. */
  newTranscript(model: string | undefined, folder = ''): Transcript {
    return newTranscript(path.join(this.sessionsDir(), folder), { workspace: folderPaths(), model });
  }

  private sessionsDir(): string {
    return path.join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, 'sessions');
  }

  /**
   * An agent on the window's socket for `transcript`; its events go to `emit` and every listener. `lane`: its
   * own `stream_id` lane, to run beside the default lane's task (a chat of several open at once), with its own
   * tools where `inline` (an inline edit). `folder`: the one whose settings the task follows (its turn limit,
   * in a multi-root window).
   */
  async agentFor(
    transcript: Transcript,
    approvals: ApprovalPolicy,
    emit: (event: AgentEvent) => void,
    tools: (workspace: Workspace) => Workspace = (workspace) => workspace,
    lane?: { id: string; inline?: (registry: ToolRegistry) => ToolRegistry },
    folder = taskFolder(),
    choices?: (base: FrontChoices) => FrontChoices,
    commands?: BackgroundCommands,
  ): Promise<Agent> {
    const settings = readSettings(folder);
    const first = this.agentsStarted++ === 0;
    const clock = stopwatch();
    const ready = await this.agentParts(settings, clock);
    const inline = lane?.inline;
    const agent = ready.session.agent({
      model: settings.model,
      modelOptions: modelOptionsFrom(settings.modelOptions),
      context: { window: settings.contextWindow, compactAt: settings.compactAt },
      maxTurns: settings.maxTurns,
      planTool: settings.planTool,
      transcript,
      ...(lane ? { lane: lane.id } : {}),
      // The user's command rules, read at each command (allow only from where a repository cannot write).
      approvals: withCommandRules(
        approvals,
        (root) => commandRulesFor(root, this.context.workspaceState),
        (rule) => void keepAllowRule(this.context.workspaceState, rule),
      ),
      projectInstructions: () => this.composer.projectInstructions(),
      environment: windowEnvironment,
      emit: (event) => this.forward(event, emit),
      ...(inline
        ? inlineSpec(tools(ready.workspace), inline(ready.registry))
        : await this.chatSpec({
            workspace: tools(ready.workspace),
            registry: ready.registry,
            transcript,
            approvals,
            choices,
            commands,
          })),
    });
    await agent.start();
    // Where a first prompt's time goes before its request (npm run bench -- --panel reads this line).
    if (first)
      this.log.info(
        `first agent ready in ${clock.total().toFixed(1)} ms: workspace ${ready.ms.workspace.toFixed(1)} ms, backend ${ready.ms.backend.toFixed(1)} ms, tools ${ready.ms.tools.toFixed(1)} ms, socket and warm-up ${clock.lap().toFixed(1)} ms`,
      );
    return agent;
  }

  /** What every agent stands on, each timed for the first agent's line: the workspace, the session, the tools. */
  private async agentParts(settings: ReturnType<typeof readSettings>, clock: ReturnType<typeof stopwatch>) {
    const workspace = await this.adapter();
    const workspaceMs = clock.lap();
    const session = await this.backend.session(settings);
    if (!session) throw new Error(t('The endpoint was not chosen.'));
    const backendMs = clock.lap();
    const registry = await this.tools.registry();
    return { workspace, session, registry, ms: { workspace: workspaceMs, backend: backendMs, tools: clock.lap() } };
  }

  /**
   * A chat's or a task's agent: the window's reads (a chat's commands in the background in its own registry,
   * `commands`), skills, subagents and hooks. Read before every request, the choices are the composer's model
   * and effort, then the chat's custom agent (the agent picker's) under a prompt's own.
   */
  private async chatSpec(chat: {
    workspace: Workspace;
    registry: ToolRegistry;
    transcript: Transcript;
    approvals: ApprovalPolicy;
    choices: ((base: FrontChoices) => FrontChoices) | undefined;
    commands: BackgroundCommands | undefined;
  }) {
    // Read once here so that the instructions say how skills work.
    const skills = () => this.skills.read();
    const skillsFound = (await skills()).skills.length > 0;
    const { workspace, commands } = chat;
    return {
      tools: { workspace, reads: this.reads, ...(commands ? { sessions: commands } : {}) },
      registry: chat.registry,
      subagents: {},
      choices: this.composer.agents.reader(modelChoices, chat.choices),
      skills,
      skillsFound,
      ...(await this.tools.hooks.forAgent(chat.transcript, chat.approvals)),
    } satisfies Partial<AgentSpec>;
  }

  /** An agent's event, to its task's `emit` and every listener; a task's end acts on the window too. */
  private forward(event: AgentEvent, emit: (event: AgentEvent) => void): void {
    emit(event);
    // A subagent's events are its chat's alone: its end is not the task's (the status bar, the socket, Stop).
    if (event.agent) return;
    this.emit(event);
    // A task the endpoint stopped (a refusal, bad credentials, nothing listening) leaves a socket that may
    // be in any state: the next task gets a new one, and picks up a key or setting fixed meanwhile.
    if (event.type === 'done' && event.status === 'failed') this.backend.replace();
  }

  /**
   * Starts what a first prompt needs while the user is still typing it (the chat panel has just shown): the
   * workspace adapter, the backend (the embedded server, when it is the endpoint), the tools (MCP servers)
   * and the socket. Whatever fails here is the first prompt's to try again and report.
   */
  private prepare(): void {
    const clock = stopwatch();
    const settings = readSettings(vscode.workspace.workspaceFolders?.[0]);
    // A workspace's endpoint is not asked about here: the panel's showing must raise no question by itself.
    const socket = this.backend.session(settings, false).then((session) => session?.transport.preconnect());
    Promise.all([this.adapter(), socket, this.tools.registry(false)]).then(
      ([, open]) =>
        this.log.info(`ready for a first prompt in ${clock.total().toFixed(1)} ms${open ? ', socket open' : ''}`),
      (error: unknown) => this.log.info(`not ready ahead of a first prompt (${String(error)}): it starts then`),
    );
  }

  /**
   * The window's chats (chat/deck/chatDeck.ts: several open at once, each on its own lane of the socket),
   * made when the panel first asks for them, each with its review shown and kept in step in the editor.
   */
  get chats(): ChatDeck {
    if (this.deck) return this.deck;
    this.deck = windowChats(
      {
        workspace: () => this.adapter(),
        agent: (lane, commands) => (transcript, approvals, emit, tools, choices) =>
          this.agentFor(transcript, approvals, emit, tools, onLane(lane), undefined, choices, commands),
        commandEvent: (chat, event) => this.log.info(`${chat}: ${commandLine(event)}`),
        queue: this.queue,
        newTranscript: () => this.newTranscript(readSettings(vscode.workspace.workspaceFolders?.[0]).model),
        sessionsDir: this.sessionsDir(),
        approvalMode: () => this.approvals.mode(),
        log: (line) => this.log.warn(line),
        slash: windowSlash(this.context, this.skills, this.log),
      },
      { composer: this.composer, context: this.chatContext, activity: this.activity },
      this.disposables,
    );
    if (!this.inlineController?.disposed) this.prepare(); // not made on the way out, for an inline edit's entry
    return this.deck;
  }

  /** The chat the panel shows. */
  get chat(): ChatController {
    return this.chats.shown;
  }

  /**
   * The window's inline edits (Ctrl+I, the light bulb's Fix with Loopwire). Each gets an agent of its own:
   * its own transcript and lane on the window's socket, beside the chat's task, with the tools that read and
   * those that edit (writing only the file it is about); the streamed edit is its approval (Keep / Undo).
   */
  get inline(): InlineController {
    if (this.inlineController) return this.inlineController;
    const inline = new InlineController({
      // The edited file's folder settles its settings, whichever editor is active by then.
      agent: async (lane, tools, emit, file) => {
        // Kept apart from the chats: History lists none of them, the chat's own entry stands for each.
        const transcript = this.newTranscript(readSettings(vscode.workspace.workspaceFolders?.[0]).model, 'inline');
        const lanes = { id: lane, inline: inlineTools };
        const agent = await this.agentFor(transcript, approveAll, emit, tools, lanes, folderOf(file) ?? taskFolder());
        return { agent, transcript };
      },
      workspace: () => this.adapter(),
      log: this.log,
      // The panel's chat gets a short entry (made if the panel never showed; not revealed nor focused).
      // It stays in the chat shown when it ended: a later outcome (Ctrl+Z, Undo All) updates it there.
      finished: (note) => this.chats.addInline(note),
      updated: (id, note) => this.chats.updateInline(id, note),
    });
    this.inlineController = inline;
    this.disposables.push(inline);
    return inline;
  }

  private emit(event: AgentEvent): void {
    if (event.type === 'notice') this.log.info(event.message);
    for (const listener of this.listeners) listener(event);
  }
}
