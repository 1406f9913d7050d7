import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type AgentEvent, SessionTransport, Transcript, approveAll } from '../../src/agent';
import { type LoopwireServer, type ScenarioFile, startServer } from '../../src/server';
import { ReadLedger, toolsFor } from '../../src/tools';
import type { Workspace } from '../../src/workspace';
import { NodeWorkspace } from '../../src/workspace/node/nodeWorkspace';

// One seeded chaos run: an agent task of non-idempotent edits (each inserts a line, so running one twice
// would show) and reads, against the real server, with a fault chosen by the seed before each tool call's
// next request: sockets closed mid-stream, malformed and truncated frames, stalls, previous_response_not_found,
// rate limits, 5xx, and server restarts (the connection cache gone). Afterwards: the task completed (or
// stopped and then completed on resume), every file holds each of its inserts exactly once, no call ran
// twice, and the transcript reloads to the same conversation.

export const FAULT_KINDS = [
  'close',
  'malformed',
  'truncated',
  'stall',
  'not_found',
  'rate_limit',
  'server_error',
  'restart',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface ChaosOutcome {
  seed: number;
  completed: boolean;
  resumed: boolean;
  faults: Partial<Record<FaultKind, number>>;
  filesVerified: number;
  toolCalls: number;
  /** Why the run is a failure; empty when nothing was lost. */
  losses: string[];
}

/** mulberry32: a small, well-mixed seeded generator, so a failing seed can be replayed exactly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = ['a.txt', 'b.txt', 'c.txt'];
const insert = (file: string, line: string) =>
  `*** Begin Patch\n*** Update File: ${file}\n@@\n+${line}\n*** End Patch\n`;

function scenario(): ScenarioFile {
  const steps: ScenarioFile['scenarios'][number]['steps'] = [];
  for (let i = 0; i < 9; i++) {
    const file = FILES[i % FILES.length] as string;
    steps.push({ output: [{ type: 'custom_tool_call', name: 'apply_patch', input: insert(file, `entry ${i}`) }] });
    if (i % 3 === 2) steps.push({ output: [{ type: 'function_call', name: 'read_file', arguments: { path: file } }] });
  }
  steps.push({ output: [{ type: 'message', text: 'All entries written.' }] });
  return { scenarios: [{ name: 'chaos', match: 'write the entries', steps }] };
}

const expected = (file: string) =>
  `start\n${Array.from({ length: 9 }, (_, i) => i)
    .filter((i) => FILES[i % FILES.length] === file)
    .map((i) => `entry ${i}\n`)
    .join('')}`;

const TOKEN = 'chaos-token';

export async function chaosRun(seed: number): Promise<ChaosOutcome> {
  const next = random(seed);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-chaos-'));
  const dir = path.join(base, 'workspace');
  fs.mkdirSync(dir);
  for (const file of FILES) fs.writeFileSync(path.join(dir, file), 'start\n');
  const transcriptFile = path.join(base, 'session.jsonl');
  const outcome: ChaosOutcome = {
    seed,
    completed: false,
    resumed: false,
    faults: {},
    filesVerified: 0,
    toolCalls: 0,
    losses: [],
  };
  let port = 0;
  let server: LoopwireServer | undefined;
  const start = async () => {
    server = await startServer({ scenarios: [scenario()], token: TOKEN, tps: 50_000, prefillUsPerToken: 0, port });
    port = server.port;
  };
  await start();
  const admin = (fault: Record<string, unknown>) =>
    fetch(`${(server as LoopwireServer).url.replace(/\/v1$/, '')}/admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fault, count: 1 }),
    });
  const inject = async () => {
    if (next() < 0.4) return;
    const kind = FAULT_KINDS[Math.floor(next() * FAULT_KINDS.length)] as FaultKind;
    outcome.faults[kind] = (outcome.faults[kind] ?? 0) + 1;
    const after = 1 + Math.floor(next() * 6);
    switch (kind) {
      case 'close':
        return void (await admin({ kind: 'close', after_events: after }));
      case 'malformed':
        return void (await admin({ kind: 'malformed_frame', after_events: after }));
      case 'truncated':
        return void (await admin({ kind: 'truncated_frame', after_events: after }));
      case 'stall':
        return void (await admin({ kind: 'stall', after_events: after, ms: 5_000 }));
      case 'not_found':
        return void (await admin({
          kind: 'error',
          status: 400,
          code: 'previous_response_not_found',
          message: 'Previous response not found.',
        }));
      case 'rate_limit':
        return void (await admin({
          kind: 'error',
          status: 429,
          code: 'rate_limit_exceeded',
          message: 'slow down',
          retry_after_s: 0,
        }));
      case 'server_error':
        return void (await admin({
          kind: 'error',
          status: 500,
          code: 'server_error',
          message: 'boom',
          after_events: next() < 0.5 ? 0 : after,
        }));
      case 'restart':
        await server?.close();
        return start();
    }
  };
  const events: AgentEvent[] = [];
  const emit = (event: AgentEvent) => events.push(event);
  try {
    const disk = await NodeWorkspace.open(dir);
    // Every tool call first lets the seed pick a fault for the request that follows it.
    const workspace = new Proxy(disk, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function' || !['readFile', 'applyPlan'].includes(String(key))) return value;
        return async (...args: unknown[]) => {
          await inject();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Workspace;
    const agent = (transcript: Transcript) =>
      new Agent({
        transport: new SessionTransport({
          endpoint: (server as LoopwireServer).url,
          apiKey: TOKEN,
          transport: 'auto',
          idleTimeoutMs: 400,
          backoffBaseMs: 10,
          backoffMaxMs: 50,
          emit,
        }),
        transcript,
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'chaos',
        toolSpecs: toolsFor('gpt-5.5'),
        approvals: approveAll,
        emit,
      });
    const transcript = Transcript.create(
      { id: `chaos-${seed}`, createdAt: new Date().toISOString(), workspace: dir, model: 'gpt-5.5' },
      transcriptFile,
    );
    let done = await agent(transcript).run('Please write the entries.');
    if (done.status !== 'completed') {
      // Stopped with a reason: the session must be resumable from its transcript alone.
      outcome.resumed = true;
      done = await agent(Transcript.load(transcriptFile)).run(undefined);
    }
    outcome.completed = done.status === 'completed';
    if (!outcome.completed) outcome.losses.push(`did not complete after a resume: ${done.reason}`);
    const started = events.filter((event) => event.type === 'tool_started');
    outcome.toolCalls = started.length;
    const byCall = new Map<string, number>();
    for (const event of started)
      if (event.type === 'tool_started') byCall.set(event.callId, (byCall.get(event.callId) ?? 0) + 1);
    for (const [callId, count] of byCall) if (count > 1) outcome.losses.push(`call ${callId} ran ${count} times`);
    for (const file of FILES) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      if (text === expected(file)) outcome.filesVerified++;
      else outcome.losses.push(`${file} is ${JSON.stringify(text)}, not ${JSON.stringify(expected(file))}`);
    }
    const reloaded = Transcript.load(transcriptFile);
    if (reloaded.pendingCalls().length > 0) outcome.losses.push('the transcript has calls without outputs');
  } finally {
    await server?.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  return outcome;
}

/** The report of a set of runs: faults by kind, tasks completed, files verified, and every loss. */
export function summarize(outcomes: readonly ChaosOutcome[]): string {
  const faults = Object.fromEntries(
    FAULT_KINDS.map((kind) => [kind, outcomes.reduce((n, o) => n + (o.faults[kind] ?? 0), 0)]),
  );
  const losses = outcomes.flatMap((o) => o.losses.map((loss) => `seed ${o.seed}: ${loss}`));
  return [
    `seeded runs: ${outcomes.length}`,
    `faults injected: ${Object.entries(faults)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
    `tasks completed: ${outcomes.filter((o) => o.completed).length} (${outcomes.filter((o) => o.resumed).length} after a resume)`,
    `files verified: ${outcomes.reduce((n, o) => n + o.filesVerified, 0)} of ${outcomes.length * 3}`,
    `tool calls: ${outcomes.reduce((n, o) => n + o.toolCalls, 0)}`,
    `losses: ${losses.length === 0 ? 'none' : `\n  ${losses.join('\n  ')}`}`,
  ].join('\n');
}
