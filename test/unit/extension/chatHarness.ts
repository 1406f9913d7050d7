import * as path from 'node:path';
import {
  type AgentEvent,
  type AgentSession,
  type AgentSpec,
  type ApprovalMode,
  type ApprovalRequest,
  type FrontChoices,
  Transcript,
  createAgentSession,
} from '../../../src/agent';
import { type ChatHost, ChatController } from '../../../src/extension/chat/chatController';
import type { ChatContext } from '../../../src/extension/chat/composer/contextPort';
import type { ComposerPort } from '../../../src/extension/chat/composer/composerPort';
import type { SlashPort } from '../../../src/extension/chat/composer/chatSlash';
import { type HostMessage, HostMessage as HostMessageSchema, type Remedy } from '../../../src/protocol/chatView';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { AgentBench } from '../agent/agentHarness';

// The chat panel's host side on a real folder, against the real server over a real socket (the Node
// adapter stands in for VS Code's: both hold to one contract). What the webview would be sent is checked
// against its schema and kept; what the user clicks goes in as the webview would send it.

export interface ChatBench {
  sent: HostMessage[];
  diffs: { path: string; before: string }[];
  opened: { path: string; line?: number; column?: number }[];
  asked: ApprovalRequest[];
  logged: string[];
  mode: ApprovalMode;
  /** The context window and where the chat's agents compact (default: the model's; reset per test). */
  context?: AgentSpec['context'];
  /** The composer's attachments' window side, where a test gives one (default: none). */
  chatContext?: ChatContext;
  /** The composer's pickers' window side, where a test gives one (default: none). */
  steering?: ComposerPort;
  /** The `/` commands' window side (prompt files, skills, /review), where a test gives one (default: none). */
  slash?: SlashPort;
  /** The window's choices each request starts from (its agent picker's), where a test gives them (default: none). */
  front?: () => FrontChoices;
  /** The model the chat's agents ask for (default: gpt-5.5; reset per test). */
  model?: string;
  /** The key the next agent's session sends (default: the server's token; reset per test). */
  apiKey?: string;
  /** The session's own events (the extension's status bar gets these): never a conversation's turns. */
  sessionEvents: AgentEvent[];
  /** The remedies the page asked the window to run (a stop's button). */
  remedies: Remedy[];
  /** What the chat told the window of its state, in order (the context keys of Stop and Open Transcript). */
  states: { busy: boolean; hasTranscript: boolean }[];
  /** A controller as a window makes one: a second on the same bench is the window after a reload. */
  controller(): ChatController;
}

export function useChatBench(bench: AgentBench): ChatBench {
  let agentSessions: AgentSession[] = [];
  let transcripts = 0;
  const chats: ChatController[] = [];
  const state = {} as ChatBench;
  state.controller = () => {
    const sessions = path.join(path.dirname(bench.dir), 'sessions');
    let queue: Promise<unknown> = Promise.resolve();
    let workspace: Promise<NodeWorkspace> | undefined;
    const backend: ChatHost = {
      workspace: () => (workspace ??= NodeWorkspace.open(bench.dir)),
      // Wired as the extension wires it (WindowRuntime.agentFor): one session with its own sink (the status
      // bar's), each conversation's agent with the chat's.
      agent: async (transcript, approvals, emit, tools = (workspace) => workspace, choices) => {
        const session = createAgentSession({
          endpoint: bench.server.url,
          apiKey: state.apiKey ?? 'test-token',
          transport: 'ws',
          emit: (event) => state.sessionEvents.push(event),
        });
        agentSessions.push(session);
        const agent = session.agent({
          model: state.model ?? 'gpt-5.5',
          transcript,
          tools: { workspace: tools(await backend.workspace()), reads: new ReadLedger() },
          approvals,
          // A task the endpoint stopped closes its session, as the window replaces its backend then.
          emit: (event) => {
            emit(event);
            if (event.type === 'done' && event.status === 'failed') session.close(false);
          },
          ...(state.context ? { context: state.context } : {}),
          // A prompt's own model and tools over the window's (none here, or the test's: the spec's model).
          ...(choices ? { choices: () => choices(state.front?.() ?? {}) } : {}),
        });
        await agent.start();
        return agent;
      },
      enqueue: (run) => {
        const next = queue.then(run);
        queue = next.catch(() => undefined);
        return next;
      },
      newTranscript: () => {
        // Numbered: a chat of inline entries alone gets one with no agent, maybe in the same millisecond as another.
        const id = `chat-${Date.now()}-${++transcripts}`;
        return Transcript.create(
          { id, createdAt: new Date().toISOString(), workspace: bench.dir, model: state.model ?? 'gpt-5.5' },
          path.join(sessions, `${id}.jsonl`),
        );
      },
      sessionsDir: sessions,
      approvalMode: () => state.mode,
      askElsewhere: (request) => {
        state.asked.push(request);
        return Promise.resolve(false);
      },
      openDiff: (file, before) => {
        state.diffs.push({ path: file, before });
        return Promise.resolve();
      },
      openFile: (file, line, column) => {
        state.opened.push({ path: file, ...(line ? { line } : {}), ...(column ? { column } : {}) });
        return Promise.resolve();
      },
      remedy: (remedy) => {
        state.remedies.push(remedy);
        return Promise.resolve();
      },
      changed: (changed) => state.states.push(changed),
      backendInfo: () => ({ label: 'built-in offline backend', offline: true }),
      log: (line) => state.logged.push(line),
      ...(state.chatContext ? { context: state.chatContext } : {}),
      ...(state.steering ? { composer: state.steering } : {}),
      ...(state.slash ? { slash: state.slash } : {}),
    };
    const chat = new ChatController(backend);
    chats.push(chat);
    chat.attach((message) => {
      // Everything the webview would get must be what its schema accepts.
      HostMessageSchema.parse(JSON.parse(JSON.stringify(message)));
      state.sent.push(message);
    });
    return chat;
  };

  beforeEach(() => {
    state.sent = [];
    state.diffs = [];
    state.opened = [];
    state.asked = [];
    state.logged = [];
    state.mode = 'all';
    state.context = undefined;
    delete state.apiKey;
    delete state.model;
    state.chatContext = undefined;
    state.steering = undefined;
    state.slash = undefined;
    state.front = undefined;
    state.sessionEvents = [];
    state.remedies = [];
    state.states = [];
    agentSessions = [];
  });
  // Before the bench removes the test's folder (mocha would run an afterEach of ours after its own): every
  // chat's last snapshot is on disk and its tasks over, so that nothing writes into the folder once it is gone.
  bench.beforeRemove(async () => {
    const closing = chats.splice(0);
    for (const chat of closing) chat.dispose();
    await Promise.all(closing.map((chat) => chat.closed()));
    for (const session of agentSessions) session.close(false);
  });
  return state;
}
