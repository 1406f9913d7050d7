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
  readOnly,
} from '../agent';
import { DEFAULT_SCENARIOS, type LoopwireServer, loadScenarioFile, startServer } from '../server';
import { ReadLedger, type ToolResult, TOOL_NAMES, runToolCall, toolsFor } from '../tools';
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

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // A new endpoint, transport or scenario list takes effect with the next task: the backend and its socket
    // are replaced once the running task (if any) is over.
    this.configWatch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (['endpoint', 'transport', 'scenarioFiles'].some((key) => event.affectsConfiguration(`loopwire.${key}`)))
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
        const server = await startServer({ scenarios, token, log: (line) => this.log.debug(line) });
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
          ...(apiKey ? { apiKey } : {}),
        }),
      };
    })();
    this.backend.catch(() => (this.backend = undefined));
    return this.backend;
  }

  private async task(prompt: string, approve?: 'all' | 'read-only', signal?: AbortSignal): Promise<TaskOutcome> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const settings = readSettings(folder);
    const workspace = await this.adapter();
    const { transport } = await this.connect(settings);
    const texts: string[] = [];
    let last: 'ws' | 'http' = transport.transport;
    const emit = (event: AgentEvent) => {
      if (event.type === 'message') texts.push(event.text);
      if (event.type === 'turn_finished') last = event.metrics.transport;
      this.emit(event);
    };
    const storage = this.context.storageUri ?? this.context.globalStorageUri;
    const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
    const transcript = Transcript.create(
      { id, createdAt: new Date().toISOString(), workspace: folderPaths(), model: settings.model },
      path.join(storage.fsPath, 'sessions', `${id}.jsonl`),
    );
    const agent = new Agent({
      transport,
      transcript,
      tools: { workspace, reads: this.reads },
      model: settings.model,
      instructions: DEFAULT_INSTRUCTIONS,
      toolSpecs: toolsFor(settings.model, { capabilities: workspace.capabilities }),
      approvals: this.approvals(approve ?? settings.approval),
      emit,
    });
    await agent.start();
    const done = await agent.run(prompt, signal);
    this.log.info(`task ${id}: ${done.status} (${done.reason}), ${done.turns} turns, ${done.toolCalls} tool calls`);
    return { ok: done.status === 'completed', text: texts.join('\n\n'), turns: done.turns, transport: last };
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
    for (const listener of this.listeners) listener(event);
  }
}
