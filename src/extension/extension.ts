import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../agent';
import type { LoopwireApi } from './api';
import { ApprovalChoice } from './trust/approvalChoice';
import { ChatViewProvider } from './chat/window/chatViewProvider';
import { askInChat, chatCommands } from './commands/chatCommands';
import { FixWithLoopwire } from './commands/fixWithLoopwire';
import { inlineCommands } from './inline/inlineCommands';
import { inlineOffKey } from './inline/inlineOffKey';
import { reviewChangesCommands } from './review/reviewActivation';
import { KEEP_COMMAND, UNDO_COMMAND, reviewFromEditor } from './review/reviewCommands';
import type { EndpointAccess } from './endpoint/endpointAccess';
import { endpointCommands } from './endpoint/endpointCommands';
import { statusItem } from './notifications/statusItem';
import { worktreeCommands } from './worktrees/worktreeActivation';
import type * as RuntimeBundle from './runtimeBundle';
import type { WindowRuntime } from './windowRuntime';

/**
 * The runtime's bundle (dist/runtime.js, beside this one): required the first time a tool, a task or an
 * inline edit is asked for (Node keeps it after that), so a window that never uses Loopwire never loads it.
 */
function runtimeBundle(): typeof RuntimeBundle {
  return createRequire(__filename)(path.join(__dirname, 'runtime.js')) as typeof RuntimeBundle;
}

function loadRuntime(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  status: ReturnType<typeof statusItem>,
  access: EndpointAccess,
  chat: ChatViewProvider,
  approvals: ApprovalChoice,
): WindowRuntime {
  const started = performance.now();
  const { WindowRuntime: Runtime, taskNotifications } = runtimeBundle();
  // Show on a notification that names one of several chats shows that one.
  const activity = taskNotifications(chat, log, (id) => runtime.chats.show(id));
  const runtime: WindowRuntime = new Runtime(context, log, access, activity, approvals);
  log.info(`session loaded in ${(performance.now() - started).toFixed(1)} ms`);
  // The status bar and the log line go after what the loop does next (its next request on the socket):
  // nothing waits for them, and a turn's gap is no place for them. In order, in one turn of the loop.
  const shown = inOrderLater((event: AgentEvent) => {
    status.update(event);
    logEvent(log, event);
  });
  context.subscriptions.push(
    runtime,
    runtime.onEvent((event) => {
      if (SHOWN.has(event.type)) shown(event);
    }),
  );
  return runtime;
}

/**
 * Activation registers what the manifest contributes and nothing more: the backend, the socket and the
 * workspace adapter start on first use, so Loopwire costs nothing in windows that never call it.
 */
export function activate(context: vscode.ExtensionContext): LoopwireApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Loopwire', { log: true });
  let runtime: WindowRuntime | undefined;
  const status = statusItem();
  const endpoints = endpointCommands(context, log, {
    changed: () => runtime?.endpointChanged(),
    check: () => current().checkEndpoint(),
  });
  const chat = new ChatViewProvider(context.extensionUri, () => current().chats);
  // The approval mode in force, read by the light bulb and Ctrl+I's context key without loading the runtime.
  const approvals = new ApprovalChoice(context.workspaceState);
  const current = (): WindowRuntime =>
    (runtime ??= loadRuntime(context, log, status, endpoints.access, chat, approvals));
  context.subscriptions.push(
    status.item,
    approvals,
    inlineOffKey(approvals),
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chat),
    vscode.languages.registerCodeActionsProvider(
      { scheme: 'file' },
      new FixWithLoopwire(() => approvals.peek()),
      FixWithLoopwire.metadata,
    ),
    ...chatCommands(chat, current, () => runtime),
    ...inlineCommands(runtimeBundle, current, () => runtime),
    ...worktreeCommands(runtimeBundle),
    ...reviewChangesCommands(runtimeBundle, current, context),
    vscode.commands.registerCommand('loopwire.stop', () => runtime?.chat.stop()),
    vscode.commands.registerCommand('loopwire.chooseApproval', () => current().chooseApproval()),
    // The editor's Keep / Undo lenses (review/editorMarks.ts): they exist only once the chat does.
    vscode.commands.registerCommand(KEEP_COMMAND, (hunk?: unknown) => reviewFromEditor(runtime?.chat, hunk, 'accept')),
    vscode.commands.registerCommand(UNDO_COMMAND, (hunk?: unknown) => reviewFromEditor(runtime?.chat, hunk, 'reject')),
    log,
    vscode.commands.registerCommand('loopwire.showLog', () => log.show(true)),
    ...endpoints.disposables,
  );
  const manifestVersion = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof manifestVersion === 'string' ? manifestVersion : '0.0.0';
  log.info(`Loopwire ${version} activated in ${(performance.now() - started).toFixed(1)} ms`);
  return {
    version,
    tools: {
      list: () => current().toolNames(),
      run: (name, args) => current().runTool(name, args),
    },
    agent: {
      run: (prompt, options) => current().runTask(prompt, options?.approve),
    },
    chat: {
      ask: (prompt) => askInChat(chat, current, prompt),
      newChat: () => Promise.resolve(vscode.commands.executeCommand('loopwire.newChat')).then(() => undefined),
      view: () => runtime?.chat.shown,
    },
  };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

/** The events the status bar or the log line tell of. */
const SHOWN: ReadonlySet<AgentEvent['type']> = new Set(['transport', 'turn_finished', 'compacted', 'error']);

/** `handle` called with each value given, in order, in a later turn of the event loop (setImmediate). */
function inOrderLater<T>(handle: (value: T) => void): (value: T) => void {
  let queued: T[] = [];
  return (value) => {
    queued.push(value);
    if (queued.length > 1) return;
    setImmediate(() => {
      const values = queued;
      queued = [];
      for (const held of values) handle(held);
    });
  };
}

function logEvent(log: vscode.LogOutputChannel, event: AgentEvent): void {
  if (event.type === 'turn_finished') {
    const m = event.metrics;
    log.info(
      `turn ${m.turn} over ${m.transport}${m.chained ? ' (chained)' : ''}: overhead ${(m.overheadBeforeMs + (m.overheadAfterMs ?? 0)).toFixed(2)} ms,${m.gapMs === null ? '' : ` gap ${m.gapMs.toFixed(2)} ms,`} first event ${m.timeToFirstEventMs.toFixed(1)} ms, model ${m.modelMs.toFixed(1)} ms, tools ${m.toolMs.toFixed(1)} ms, ${m.bytesSent} B sent, ${m.inputTokens} input tokens (${m.cachedTokens} cached)`,
    );
  } else if (event.type === 'error') log.warn(`${event.code}: ${event.message}`);
}
