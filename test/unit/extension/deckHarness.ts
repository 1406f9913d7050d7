import * as path from 'node:path';
import { type AgentSession, type ApprovalMode, Transcript, createAgentSession } from '../../../src/agent';
import type { ChatActivity, TaskEnd, WaitingCall } from '../../../src/extension/chat/chatActivity';
import type { ChatHost } from '../../../src/extension/chat/chatPort';
import { ChatDeck } from '../../../src/extension/chat/deck/chatDeck';
import { type HostMessage, HostMessage as HostMessageSchema } from '../../../src/protocol/chatView';
import type { ChatTab } from '../../../src/protocol/chatTabs';
import { type BackgroundCommands, ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { AgentBench } from '../agent/agentHarness';

// The window's chats (chatDeck.ts) as the window wires them (windowChats.ts), on a real folder against the
// real server: ONE agent session — one socket — shared by every chat, the first chat on the default lane in
// a queue, the others each on its own `stream_id` lane. What the page would get is checked against its schema.

export interface DeckBench {
  deck: ChatDeck;
  sent: HostMessage[];
  mode: ApprovalMode;
  max: number;
  /** What the window's notifications and badge were told. */
  calls: (readonly WaitingCall[])[];
  ends: TaskEnd[];
  /** The lanes the chats' agents were made on (undefined: the default lane). */
  lanes: (string | undefined)[];
  /** The last list the page got. */
  tabs(): ChatTab[];
  /** The window after a reload: a new deck on the same folders (the old one disposed first). */
  reopen(): ChatDeck;
}

export function useDeckBench(bench: AgentBench): DeckBench {
  const state = {} as DeckBench;
  let session: AgentSession | undefined;
  let transcripts = 0;
  const activity: ChatActivity = {
    waiting: (calls) => state.calls.push(calls),
    ended: (end) => state.ends.push(end),
  };
  const host = (lane: string | undefined, commands: BackgroundCommands): ChatHost => {
    const sessions = path.join(path.dirname(bench.dir), 'sessions');
    let queue: Promise<unknown> = Promise.resolve();
    let workspace: Promise<NodeWorkspace> | undefined;
    const open = () => (workspace ??= NodeWorkspace.open(bench.dir));
    return {
      workspace: open,
      agent: async (transcript, approvals, emit, tools = (workspace) => workspace) => {
        session ??= createAgentSession({
          endpoint: bench.server.url,
          apiKey: 'test-token',
          transport: 'ws',
          emit: () => undefined,
        });
        state.lanes.push(lane);
        const agent = session.agent({
          model: 'gpt-5.5',
          transcript,
          // The chat's own commands running in the background, as the window gives each chat (windowChats.ts).
          tools: { workspace: tools(await open()), reads: new ReadLedger(), sessions: commands },
          approvals,
          emit,
          ...(lane === undefined ? {} : { lane }),
        });
        await agent.start();
        return agent;
      },
      // The default lane's queue; a lane of its own runs at once (the deck's cap is before both).
      enqueue: (run) => {
        if (lane !== undefined) return run();
        const next = queue.then(run);
        queue = next.catch(() => undefined);
        return next;
      },
      newTranscript: () => {
        const id = `chat-${Date.now()}-${++transcripts}`;
        return Transcript.create(
          { id, createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
          path.join(sessions, `${id}.jsonl`),
        );
      },
      sessionsDir: sessions,
      approvalMode: () => state.mode,
      askElsewhere: () => Promise.resolve(false),
      openDiff: () => Promise.resolve(),
      log: () => undefined,
    };
  };
  state.tabs = () => {
    const last = state.sent.findLast((message) => message.type === 'chats');
    return last?.type === 'chats' ? last.chats : [];
  };
  state.reopen = () => (state.deck = new ChatDeck({ host, maxParallel: () => state.max, activity }));
  beforeEach(() => {
    state.sent = [];
    state.calls = [];
    state.ends = [];
    state.lanes = [];
    state.mode = 'all';
    state.max = 4;
    session = undefined;
    state.deck = new ChatDeck({ host, maxParallel: () => state.max, activity });
    state.deck.attach((message) => {
      HostMessageSchema.parse(JSON.parse(JSON.stringify(message)));
      state.sent.push(message);
    });
  });
  bench.beforeRemove(async () => {
    for (const chat of state.deck.all) chat.stop();
    state.deck.dispose();
    await state.deck.closed();
    session?.close(false);
  });
  return state;
}
