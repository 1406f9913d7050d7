import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  Agent,
  type AgentEvent,
  Transcript,
  type ApprovalPolicy,
  type ContextPlan,
  approveAll,
  type TransportOptions,
  ModelTransport,
} from '../../../src/agent';
import {
  type LoopwireServer,
  type ScenarioFile,
  type StartOptions,
  type TurnRecord,
  type WireRecord,
  startServer,
} from '../../../src/server';
import { BUILTIN_TOOLS, ReadLedger, type ToolRegistry } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';

// The agent against the real bundled server over real sockets, on a real folder: each test gets a fresh
// server (with a wire log), a fresh workspace and a transcript file, and reads back what went on the wire.

/** A line of the server's wire log, as read back. */
export type WireLine = WireRecord & { ts: number };

export interface AgentBench {
  server: LoopwireServer;
  dir: string;
  log: string;
  turns: TurnRecord[];
  events: AgentEvent[];
  transcriptFile: string;
  /** A new agent (and session transport) on the workspace; `transcript` resumes one. */
  agent(
    options?: Partial<Omit<TransportOptions, 'emit' | 'endpoint'>> & {
      transcript?: Transcript;
      maxTurns?: number;
      /** Share this transport (another conversation on the same socket) instead of a new one. */
      shared?: ModelTransport;
      lane?: string;
      /** Who approves writes and tasks (default: everything runs). */
      approvals?: ApprovalPolicy;
      /** The context window and compaction threshold the agent manages (default: none). */
      context?: ContextPlan;
      /** The tools offered and run (default: the built-in ones). */
      registry?: ToolRegistry;
      /** End the task on an edit that ran, with no closing answer (an inline edit's; editEnd.ts). */
      endAfterEdit?: boolean;
    },
  ): Promise<{
    agent: Agent;
    transport: ModelTransport;
    transcript: Transcript;
  }>;
  /**
   * `teardown` runs after each test, before its server closes and its folder is removed (a chat disposed and
   * its last writes done): nothing a test left running may write into the folder once it is gone.
   */
  beforeRemove(teardown: () => void | Promise<void>): void;
  /** The wire log so far (the server flushes it on close; `restart` and `wire` close it first). */
  wire(): Promise<WireLine[]>;
  /** Stops the server and starts another on the same port (its connection cache and memory store are gone). */
  restart(): Promise<void>;
  read(file: string): string;
}

export function useAgentBench(
  scenarios: ScenarioFile | (() => ScenarioFile),
  files: Record<string, string> = {},
  serverOptions: Partial<StartOptions> = {},
): AgentBench {
  const bench = { turns: [] as TurnRecord[], events: [] as AgentEvent[] } as AgentBench;
  let base = '';
  let port = 0;
  let closed = false;
  const teardowns: Array<() => void | Promise<void>> = [];
  bench.beforeRemove = (teardown) => void teardowns.push(teardown);
  const start = async () => {
    bench.server = await startServer({
      tps: 50_000,
      prefillUsPerToken: 0,
      scenarios: [typeof scenarios === 'function' ? scenarios() : scenarios],
      logFile: bench.log,
      token: 'test-token',
      ...serverOptions,
      port,
      observe: (record) => bench.turns.push(record),
    });
    port = bench.server.port;
    closed = false;
  };
  beforeEach(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-agent-'));
    bench.dir = path.join(base, 'ws');
    bench.log = path.join(base, 'wire.jsonl');
    bench.transcriptFile = path.join(base, 'sessions', 'session.jsonl');
    bench.turns.length = 0;
    bench.events.length = 0;
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(bench.dir, name)), { recursive: true });
      fs.writeFileSync(path.join(bench.dir, name), text);
    }
    fs.mkdirSync(bench.dir, { recursive: true });
    port = 0;
    await start();
  });
  afterEach(async () => {
    // Those registered last first: what was built on the bench goes before what it was built on.
    for (const teardown of [...teardowns].reverse()) await teardown();
    if (!closed) await bench.server.close();
    fs.rmSync(base, { recursive: true, force: true });
  });
  bench.agent = async (options = {}) => {
    const {
      transcript: resumed,
      maxTurns,
      shared,
      lane,
      approvals,
      context,
      registry,
      endAfterEdit,
      ...session
    } = options;
    const workspace = await NodeWorkspace.open(bench.dir);
    const emit = (event: AgentEvent) => bench.events.push(event);
    const transport =
      shared ??
      new ModelTransport({
        endpoint: bench.server.url,
        apiKey: 'test-token',
        transport: 'ws',
        backoffBaseMs: 20,
        backoffMaxMs: 200,
        idleTimeoutMs: 5_000,
        ...session,
        emit,
      });
    const transcript =
      resumed ??
      Transcript.create(
        { id: 'test', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
        lane === undefined ? bench.transcriptFile : bench.transcriptFile.replace(/\.jsonl$/, `-${lane}.jsonl`),
      );
    const agent = new Agent({
      transport,
      transcript,
      tools: { workspace, reads: new ReadLedger() },
      model: 'gpt-5.5',
      instructions: 'You are a test agent.',
      toolSpecs: (registry ?? BUILTIN_TOOLS).offer('gpt-5.5'),
      ...(registry === undefined ? {} : { registry }),
      approvals: approvals ?? approveAll,
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(lane === undefined ? {} : { lane }),
      ...(context === undefined ? {} : { context }),
      ...(endAfterEdit === undefined ? {} : { endAfterEdit }),
      emit,
    });
    return { agent, transport, transcript };
  };
  bench.wire = async () => {
    if (!closed) {
      await bench.server.close();
      closed = true;
    }
    return fs
      .readFileSync(bench.log, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as WireLine);
  };
  bench.restart = async () => {
    if (!closed) await bench.server.close();
    await start();
  };
  bench.read = (file) => fs.readFileSync(path.join(bench.dir, file), 'utf8');
  return bench;
}

/** The requests that went to the server, in order: `response.create` frames and HTTP posts. */
export const requestsOf = (wire: readonly WireLine[]) =>
  wire.filter((line) => line.dir === 'in' && (line.type === 'response.create' || line.type === 'POST /v1/responses'));

export const eventsOf = <T extends AgentEvent['type']>(events: readonly AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

/** Queues a fault through the server's admin endpoint for its next `count` responses (of `transport`). */
export async function queueFault(
  bench: AgentBench,
  fault: Record<string, unknown>,
  count = 1,
  transport?: 'ws' | 'http',
): Promise<void> {
  const response = await fetch(`${bench.server.url.replace(/\/v1$/, '')}/admin/faults`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
    body: JSON.stringify({ fault, count, ...(transport ? { transport } : {}) }),
  });
  if (!response.ok) throw new Error(`admin/faults: ${response.status} ${await response.text()}`);
}
