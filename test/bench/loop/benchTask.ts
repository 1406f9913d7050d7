import {
  Agent,
  type AgentEvent,
  type ContextPlan,
  SessionTransport,
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

export async function runBenchTask(
  mode: ModeId,
  server: ServerProcess,
  workspace: NodeWorkspace,
  prompt: string,
  /** The window the agent manages and where it asks the server to compact (the long mode); none: no limit. */
  context?: ContextPlan,
): Promise<TaskFigures> {
  const turns: TurnMetrics[] = [];
  /** The tools each turn's response called, by turn. */
  const called = new Map<number, string[]>();
  const emit = (event: AgentEvent) => {
    if (event.type === 'turn_finished') turns.push(event.metrics);
    else if (event.type === 'tool_started') called.set(event.turn, [...(called.get(event.turn) ?? []), event.name]);
  };
  const { transport, store, chain } = MODES[mode];
  const session = new SessionTransport({ endpoint: server.url, apiKey: TOKEN, transport, store, chain, emit });
  const agent = new Agent({
    transport: session,
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
    ...(context ? { context } : {}),
  });
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
  const afterOneRead = (turn: number) => called.get(turn)?.join() === 'read_file';
  const readGaps = turns.filter((m) => m.gapMs !== null && afterOneRead(m.turn - 1));
  return {
    wallMs: done.wallMs,
    turns,
    readGapsMs: readGaps.map((m) => m.gapMs ?? 0),
    firstGapPhasesMs: readGaps[0]?.gapPhasesMs,
    serverMsPerTurn: (work(after) - work(before)) / serverTurns,
    clientCpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: server.cpuMs() - serverCpu,
  };
}
