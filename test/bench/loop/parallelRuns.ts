import type { Agent, ModelTransport } from '../../../src/agent';
import type { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { benchAgent, benchSession, turnRecorder } from './benchTask';
import type { ModeId } from './benchTypes';
import {
  PARALLEL_MODES,
  type ParallelBatch,
  type ParallelDetail,
  type ParallelMode,
  type ParallelRow,
  parallelCell,
} from './parallelFigures';

// N tasks at once, three ways (issue 49, item 5): `lanes`, one WebSocket session whose N agents each take
// their own `stream_id` lane (as the window's chat and inline edit share its socket); `sockets`, N sessions
// with a socket each (how every other agent runs several at once); `http`, N sessions of the loop bench's
// `http-full`. The same agent loop, tools, workspace and scenario as the loop bench (benchTask.ts): only
// how the N conversations reach the server differs.

/** The loop bench's mode each way's sessions run in. */
const SESSION_MODE: Record<ParallelMode, ModeId> = { lanes: 'ws-chained', sockets: 'ws-chained', http: 'http-full' };

/** Runs `n` tasks of `prompt` at once in `mode`; the wall time is the first run's start to the last one's end. */
export async function runBatch(
  mode: ParallelMode,
  n: number,
  url: string,
  workspace: NodeWorkspace,
  prompt: string,
): Promise<ParallelBatch> {
  const recorders = Array.from({ length: n }, () => turnRecorder());
  const sessions: ModelTransport[] = [];
  const sessionFor = (emit: (typeof recorders)[number]['emit']) => {
    const session = benchSession(SESSION_MODE[mode], url, emit);
    sessions.push(session);
    return session;
  };
  // One session for all N on lanes (its events go to no task: each agent's own go to its recorder).
  const shared = mode === 'lanes' ? sessionFor(() => undefined) : undefined;
  const agents: Agent[] = recorders.map((recorder, i) =>
    shared
      ? benchAgent(shared, workspace, recorder.emit, { lane: `task-${i}` })
      : benchAgent(sessionFor(recorder.emit), workspace, recorder.emit),
  );
  try {
    // Opening and warming the socket (each lane's warm-up) is the session's, not the task's: all start ready.
    await Promise.all(agents.map((agent) => agent.start()));
    const started = performance.now();
    const done = await Promise.all(agents.map((agent) => agent.run(prompt)));
    const wallMs = performance.now() - started;
    for (const result of done) if (result.status !== 'completed') throw new Error(`${mode} ×${n}: ${result.reason}`);
    return {
      wallMs,
      tasks: recorders.map((recorder) => ({
        turns: recorder.turns,
        readGapsMs: recorder.readGaps().map((m) => m.gapMs ?? 0),
      })),
    };
  } finally {
    for (const session of sessions) session.close(false);
  }
}

export interface ParallelPlan {
  url: string;
  workspace: NodeWorkspace;
  prompt: string;
  ns: readonly number[];
  repetitions: number;
  log?: (line: string) => void;
}

/**
 * The three modes' six orders, taken in turn: six repetitions put each mode first, second and last, and
 * after each of the others, alike (with the order only rotated, five repetitions ran lanes after http three
 * times at n = 1 and sockets never, and what a batch leaves behind it would fall on one mode more).
 */
const ORDERS: readonly (readonly ParallelMode[])[] = [
  ['lanes', 'sockets', 'http'],
  ['http', 'sockets', 'lanes'],
  ['sockets', 'http', 'lanes'],
  ['lanes', 'http', 'sockets'],
  ['http', 'lanes', 'sockets'],
  ['sockets', 'lanes', 'http'],
];

/**
 * Every (n, mode) cell, `repetitions` times: after one unmeasured batch per mode (the JIT and the server's
 * caches warm alike), each repetition runs every n and every mode, in one of the six orders, so that a noisy
 * moment of the shared machine, and what a batch leaves behind it, fall on all three alike.
 */
export async function runParallel(plan: ParallelPlan): Promise<{ rows: ParallelRow[]; details: ParallelDetail[] }> {
  const { url, workspace, prompt, ns, repetitions, log } = plan;
  for (const mode of PARALLEL_MODES) await runBatch(mode, 1, url, workspace, prompt);
  const batches = new Map<string, ParallelBatch[]>();
  for (let rep = 0; rep < repetitions; rep++)
    for (const [index, n] of ns.entries()) {
      const order = ORDERS[(rep + index) % ORDERS.length] ?? PARALLEL_MODES;
      for (const mode of order) {
        const batch = await runBatch(mode, n, url, workspace, prompt);
        batches.set(`${n} ${mode}`, [...(batches.get(`${n} ${mode}`) ?? []), batch]);
        log?.(`  n ${n} rep ${rep + 1} ${mode.padEnd(7)} ${(batch.wallMs / 1000).toFixed(2)} s`);
      }
    }
  const cells = ns.flatMap((n) =>
    PARALLEL_MODES.map((mode) => parallelCell(n, mode, batches.get(`${n} ${mode}`) ?? [])),
  );
  return { rows: cells.map((cell) => cell.row), details: cells.map((cell) => cell.detail) };
}
