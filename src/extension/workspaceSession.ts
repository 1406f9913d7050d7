import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  Agent,
  type AgentEvent,
  type ApprovalPolicy,
  DEFAULT_INSTRUCTIONS,
  SessionTransport,
  Transcript,
  approveAll,
  askEach,
  modelFields,
  readOnly,
} from '../agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, loadScenarioFile, startServer } from '../server';
import { ReadLedger, type ToolResult, TOOL_NAMES, runToolCall, toolsFor } from '../tools';
import { type ChatBackend, ChatController } from './chat/chatController';
import type { Workspace } from '../workspace';
import { MultiRootWorkspace } from '../workspace/vscode/multiRootWorkspace';
import { VscodeWorkspace } from '../workspace/vscode/vscodeWorkspace';
import { type LoopwireSettings, SECRET_KEY, readSettings } from './settings';

// One window's Loopwire session: the workspace adapter, the backend (the bundled one in-process when the
// endpoint is `embedded`), and one session transport — one socket — shared by every task of the window.
// Created on first use, so activation costs nothing; tasks on the default lane run one at a time.

/** The window's folders, for a transcript's header. */
const folderPaths = () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath).join(', ');

export interface TaskOutcome {
  ok: boolean;
  text: string;
  turns: number;
  transport: 'ws' | 'http';
}

export class WorkspaceSession implements vscode.Disposable {
  private workspace: Promise<Workspace> | undefined;
  private backend: Promise<{ server: LoopwireServer | undefined; transport: SessionTransport }> | undefined;
  private readonly reads = new ReadLedger();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<(event: AgentEvent) => void>();

  private readonly configWatch: vscode.Disposable;
  private readonly disposables: vscode.Disposable[] = [];
  private chatController: ChatController | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // A new endpoint, transport or scenario list takes effect with the next task: the backend and its socket
    // are replaced once the running task (if any) is over.
    this.configWatch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (
        ['endpoint', 'transport', 'scenarioFiles', 'headers'].some((key) =>
          event.affectsConfiguration(`loopwire.${key}`),
        )
      )
        this.replaceBackend();
    });
  }

  private replaceBackend(): void {
    const old = this.backend;
    this.backend = undefined;
    if (!old) return;
    this.queue = this.queue
      .then(async () => {
        const { server, transport } = await old.catch(() => ({ server: undefined, transport: undefined }));
        transport?.close(false);
        await server?.close();
      })
      // A backend that fails to close must not block the tasks queued after it.
      .catch((error: unknown) => this.log.warn(`closing the previous backend: ${String(error)}`));
  }

  /** Every agent event of the session (the chat panel and the status bar listen here). */
  onEvent(listener: (event: AgentEvent) => void): vscode.Disposable {
    this.listeners.add(listener);
    return new vscode.Disposable(() => this.listeners.delete(listener));
  }

  /** The tools this window can run: write and task tools only in a trusted workspace. */
  toolNames(): string[] {
    const trusted = vscode.workspace.isTrusted;
    const gated = new Set(['edit_file', 'apply_patch', 'write_file', 'list_tasks', 'run_task']);
    return TOOL_NAMES.filter((name) => trusted || !gated.has(name));
  }

  async runTool(name: string, args: unknown): Promise<ToolResult> {
    const workspace = await this.adapter();
    const call =
      name === 'apply_patch' && typeof args === 'string'
        ? { kind: 'custom' as const, name, input: args }
        : { kind: 'function' as const, name, arguments: JSON.stringify(args ?? {}) };
    return runToolCall(call, { workspace, reads: this.reads });
  }

  /** Runs one task to its end on the window's socket (after any task already running). */
  runTask(prompt: string, approve?: 'all' | 'read-only', signal?: AbortSignal): Promise<TaskOutcome> {
    const run = this.queue.then(() => this.task(prompt, approve, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.configWatch.dispose();
    this.chatController?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
    void this.backend?.then(({ server, transport }) => {
      transport.close(false);
      return server?.close();
    });
  }

  /** The window's workspace: one folder's adapter, or every folder's behind their names (multi-root). */
  private adapter(): Promise<Workspace> {
    this.workspace ??= (async () => {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.length === 0) throw new Error('Open a folder first: Loopwire works on a workspace folder.');
      const open = (folder: vscode.WorkspaceFolder) =>
        VscodeWorkspace.open(folder.uri, { saveAfterEdit: readSettings(folder).saveAfterEdit });
      if (folders.length === 1) return open(folders[0] as vscode.WorkspaceFolder);
      const roots = await Promise.all(
        folders.map(async (folder) => ({ name: folder.name, workspace: await open(folder) })),
      );
      return new MultiRootWorkspace(roots);
    })();
    this.workspace.catch(() => (this.workspace = undefined));
    return this.workspace;
  }

  private connect(
    settings: LoopwireSettings,
  ): Promise<{ server: LoopwireServer | undefined; transport: SessionTransport }> {
    this.backend ??= (async () => {
      const emit = (event: AgentEvent) => this.emit(event);
      if (settings.endpoint === 'embedded') {
        const token = randomBytes(24).toString('hex');
        const scenarios = [...settings.scenarioFiles.map((file) => loadScenarioFile(file)), DEFAULT_SCENARIOS];
        const server = await startServer({
          scenarios,
          token,
          // How a user of the extension adds a scenario: the end of the answer to a prompt none matches.
          scenarioHint: 'add it to the `loopwire.scenarioFiles` setting',
          log: (line) => this.log.debug(line),
        });
        this.log.info(`embedded backend at ${server.url}`);
        return {
          server,
          transport: new SessionTransport({ endpoint: server.url, apiKey: token, transport: settings.transport, emit }),
        };
      }
      const apiKey = await this.context.secrets.get(SECRET_KEY);
      const endpoint = settings.endpoint.replace(/^ws/, 'http').replace(/\/responses\/?$/, '');
      return {
        server: undefined,
        transport: new SessionTransport({
          endpoint,
          transport: settings.transport,
          emit,
          headers: settings.headers,
          ...(apiKey ? { apiKey } : {}),
        }),
      };
    })();
    this.backend.catch(() => (this.backend = undefined));
    return this.backend;
  }

  /** A new transcript in the window's storage. */
  private newTranscript(model: string): Transcript {
    const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    return Transcript.create(
      { id, createdAt: new Date().toISOString(), workspace: folderPaths(), model },
      path.join(this.sessionsDir(), `${id}.jsonl`),
    );
  }

  private sessionsDir(): string {
    const storage = this.context.storageUri ?? this.context.globalStorageUri;
    return path.join(storage.fsPath, 'sessions');
  }

  /** An agent on the window's socket for `transcript`; its events go to `emit` and every listener. */
  private async agentFor(
    transcript: Transcript,
    approvals: ApprovalPolicy,
    emit: (event: AgentEvent) => void,
  ): Promise<Agent> {
    const settings = readSettings(vscode.workspace.workspaceFolders?.[0]);
    const workspace = await this.adapter();
    const { transport } = await this.connect(settings);
    const agent = new Agent({
      transport,
      transcript,
      tools: { workspace, reads: this.reads },
      model: settings.model,
      instructions: DEFAULT_INSTRUCTIONS,
      toolSpecs: toolsFor(settings.model, { capabilities: workspace.capabilities }),
      approvals,
      extra: modelFields(settings.model, settings.modelOptions),
      emit: (event) => {
        emit(event);
        this.emit(event);
        // A task the endpoint stopped (a refusal, bad credentials, nothing listening) leaves a socket that may
        // be in any state: the next task gets a new one, and picks up a key or setting fixed meanwhile.
        if (event.type === 'done' && event.status === 'failed') this.replaceBackend();
      },
    });
    await agent.start();
    return agent;
  }

  private async task(prompt: string, approve?: 'all' | 'read-only', signal?: AbortSignal): Promise<TaskOutcome> {
    const settings = readSettings(vscode.workspace.workspaceFolders?.[0]);
    const texts: string[] = [];
    let last: 'ws' | 'http' = settings.transport === 'http' ? 'http' : 'ws';
    const transcript = this.newTranscript(settings.model);
    const agent = await this.agentFor(transcript, this.approvals(approve ?? settings.approval), (event) => {
      if (event.type === 'message') texts.push(event.text);
      if (event.type === 'turn_finished') last = event.metrics.transport;
    });
    const done = await agent.run(prompt, signal);
    this.log.info(
      `task ${transcript.header.id}: ${done.status} (${done.reason}), ${done.turns} turns, ${done.toolCalls} tool calls`,
    );
    return { ok: done.status === 'completed', text: texts.join('\n\n'), turns: done.turns, transport: last };
  }

  /** The chat panel's conversation (one per window), created when the panel first asks for it. */
  get chat(): ChatController {
    this.chatController ??= new ChatController(this.chatBackend());
    return this.chatController;
  }

  private chatBackend(): ChatBackend {
    const before = new Map<string, string>();
    const scheme = 'loopwire-before';
    this.disposables.push(
      vscode.workspace.registerTextDocumentContentProvider(scheme, {
        provideTextDocumentContent: (uri) => before.get(uri.query) ?? '',
      }),
    );
    let diffs = 0;
    return {
      workspace: () => this.adapter(),
      agent: (transcript, approvals, emit) => this.agentFor(transcript, approvals, emit),
      enqueue: (run) => {
        const next = this.queue.then(run);
        this.queue = next.catch(() => undefined);
        return next;
      },
      newTranscript: () => this.newTranscript(readSettings(vscode.workspace.workspaceFolders?.[0]).model),
      sessionsDir: this.sessionsDir(),
      approvalMode: () => readSettings(vscode.workspace.workspaceFolders?.[0]).approval,
      askElsewhere: (request) => this.approvals('ask').approve(request),
      openDiff: async (file, text, title) => {
        const key = String(++diffs);
        before.set(key, text);
        if (before.size > 20) before.delete(before.keys().next().value as string);
        const left = vscode.Uri.from({ scheme, path: `/${file}`, query: key });
        const right = this.uriOf(file);
        await vscode.commands.executeCommand('vscode.diff', left, right, title, { preserveFocus: true, preview: true });
      },
      log: (line) => this.log.warn(line),
      changed: ({ busy, hasTranscript }) => {
        void vscode.commands.executeCommand('setContext', 'loopwire.running', busy);
        void vscode.commands.executeCommand('setContext', 'loopwire.hasTranscript', hasTranscript);
      },
    };
  }

  /** The file a workspace path names (`folder/path` in a multi-root window). */
  private uriOf(file: string): vscode.Uri {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length > 1) {
      const [name, ...rest] = file.split('/');
      const folder = folders.find((f) => f.name === name);
      if (folder) return vscode.Uri.joinPath(folder.uri, ...rest);
    }
    const folder = folders[0];
    if (!folder) throw new Error('No folder is open.');
    return vscode.Uri.joinPath(folder.uri, ...file.split('/'));
  }

  private approvals(mode: 'ask' | 'all' | 'read-only'): ApprovalPolicy {
    if (mode === 'all') return approveAll;
    if (mode === 'read-only') return readOnly;
    let all = false;
    return askEach(async (request) => {
      if (all) return true;
      const choice = await vscode.window.showWarningMessage(
        `Loopwire wants to run ${request.name} (${request.effect}).`,
        { modal: true, detail: request.input.slice(0, 2000) },
        'Allow',
        'Allow for this task',
      );
      all = choice === 'Allow for this task';
      return choice !== undefined;
    });
  }

  private emit(event: AgentEvent): void {
    if (event.type === 'notice') this.log.info(event.message);
    for (const listener of this.listeners) listener(event);
  }
}
