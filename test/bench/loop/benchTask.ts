import {
  Agent,
  type AgentEvent,
  type ContextPlan,
  ModelTransport,
  Transcript,
  type TurnMetrics,
  approveAll,
} from '../../../src/agent';
import { ReadLedger, toolsFor } from '../../../src/tools';
import type { GapPhases } from '../../../src/agent/timing/turnGap';
import type { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { ModeId } from './benchTypes';
import { type ServerProcess, TOKEN } from './serverProcess';

// One task in one mode: the same agent loop, tools and workspace for every mode; only the transport
// options differ. Returns the client's per-turn metrics and the server's work and CPU over the task.

export const MODES: Record<ModeId, { transport: 'ws' | 'http'; store: boolean; chain: boolean }> = {
  'http-full': { transport: 'http', store: false, chain: false },
  'http-chained': { transport: 'http', store: true, chain: true },
  'ws-full': { transport: 'ws', store: false, chain: false },
  'ws-chained': { transport: 'ws', store: false, chain: true },
};

export interface TaskFigures {
  wallMs: number;
  turns: TurnMetrics[];
  /** The turnaround before each request that followed a single read_file call: the gap the bench reports. */
  readGapsMs: number[];
  /** The first of those turnarounds split into the loop's phases (turnGap.ts). */
  firstGapPhasesMs: GapPhases | undefined;
  serverMsPerTurn: number;
  clientCpuMs: number;
  serverCpuMs: number;
}

/** Per-turn client overhead: tool result ready → request on the wire, plus completed → first tool started. */
export const overheadOf = (m: { overheadBeforeMs: number; overheadAfterMs: number | null }) =>
  m.overheadBeforeMs + (m.overheadAfterMs ?? 0);

/** A task's events as the bench reads them: its turns' metrics, and the turnarounds after a single read. */
export function turnRecorder() {
  const turns: TurnMetrics[] = [];
  /** The tools each turn's response called, by turn. */
  const called = new Map<number, string[]>();
  const emit = (event: AgentEvent) => {
    if (event.type === 'turn_finished') turns.push(event.metrics);
    else if (event.type === 'tool_started') called.set(event.turn, [...(called.get(event.turn) ?? []), event.name]);
  };
  const afterOneRead = (turn: number) => called.get(turn)?.join() === 'read_file';
  /** The turns whose gap followed a single read_file call: the gap the bench reports. */
  const readGaps = () => turns.filter((m) => m.gapMs !== null && afterOneRead(m.turn - 1));
  return { turns, emit, readGaps };
}

/** The bench's agent on `transport`: the same loop, tools and instructions for every mode; `lane` its stream. */
export function benchAgent(
  transport: ModelTransport,
  workspace: NodeWorkspace,
  emit: (event: AgentEvent) => void,
  extra: { lane?: string; context?: ContextPlan | undefined } = {},
): Agent {
  return new Agent({
    transport,
    transcript: Transcript.create({
      id: 'bench',
      createdAt: new Date().toISOString(),
      workspace: workspace.root,
      model: 'gpt-5.5',
    }),
    tools: { workspace, reads: new ReadLedger() },
    model: 'gpt-5.5',
    instructions: 'You are a coding agent. Read and search the workspace, then answer.',
    toolSpecs: toolsFor('gpt-5.5', { capabilities: workspace.capabilities }),
    approvals: approveAll,
    maxTurns: 500,
    emit,
    ...(extra.lane === undefined ? {} : { lane: extra.lane }),
    ...(extra.context ? { context: extra.context } : {}),
  });
}

/** A session for `mode` against the bench's server, its events to `emit`. */
export function benchSession(mode: ModeId, url: string, emit: (event: AgentEvent) => void): ModelTransport {
  const { transport, store, chain } = MODES[mode];
  return new ModelTransport({ endpoint: url, apiKey: TOKEN, transport, store, chain, emit });
}

export async function runBenchTask(
  mode: ModeId,
  server: ServerProcess,
  workspace: NodeWorkspace,
  prompt: string,
  /** The window the agent manages and where it asks the server to compact (the long mode); none: no limit. */
  context?: ContextPlan,
): Promise<TaskFigures> {
  const { turns, emit, readGaps } = turnRecorder();
  const session = benchSession(mode, server.url, emit);
  const agent = benchAgent(session, workspace, emit, { context });
  // Opening and warming the socket is part of the session, not of the task: every mode starts ready.
  await agent.start();
  const before = await server.stats();
  const serverCpu = server.cpuMs();
  const clientCpu = process.cpuUsage();
  const done = await agent.run(prompt);
  const cpu = process.cpuUsage(clientCpu);
  const after = await server.stats();
  session.close(false);
  if (done.status !== 'completed') throw new Error(`${mode}: ${done.reason}`);
  const serverTurns = Math.max(1, after.turns - before.turns);
  const work = (s: typeof before) => s.work.parseMs + s.work.loadMs + s.work.workMs;
  const gaps = readGaps();
  return {
    wallMs: done.wallMs,
    turns,
    readGapsMs: gaps.map((m) => m.gapMs ?? 0),
    firstGapPhasesMs: gaps[0]?.gapPhasesMs,
    serverMsPerTurn: (work(after) - work(before)) / serverTurns,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: server.cpuMs() - serverCpu,
  };
}
