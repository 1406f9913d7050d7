import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../src/agent';
import { type LoopwireServer, type ScenarioFile, startServer } from '../../src/server';
import { ReadLedger, toolsFor } from '../../src/tools';
import type { Workspace } from '../../src/workspace';
import { NodeWorkspace } from '../../src/workspace/node/nodeWorkspace';
import { type Corruption, FaultProxy } from './faultProxy';
import { seeded } from './seeded';

// One seeded chaos run: an agent task of non-idempotent edits (each inserts a line, so running one twice
// would show) and reads, against the real server through a fault proxy (faultProxy.ts), with a fault chosen
// by the seed before each tool call's next request (now and then two at once). The server's own: sockets
// closed mid-stream, malformed and truncated frames, stalls, previous_response_not_found,
// websocket_connection_limit_reached, rate limits, 5xx, a refused key (the task stops; a resume goes on), and
// server restarts (the connection cache gone). The proxy's, at any byte: the client's or the server's socket
// closed mid-response, the request cut short, bytes held back, a frame truncated or corrupted, connections
// reset and refused. The seed also picks the transport (auto, WebSocket only or HTTP only). Afterwards: the
// task completed (or stopped with a clear reason and then completed on resume), after every edit each file
// was at its state before or after that edit, every file holds each of its inserts exactly once, no call
// ran twice, and the transcript reloads to the same conversation.

export const SERVER_FAULT_KINDS = [
  'close',
  'malformed',
  'truncated',
  'stall',
  'not_found',
  'connection_limit',
  'rate_limit',
  'server_error',
  'auth_error',
  'restart',
] as const;
export const PROXY_FAULTS = [
  'cut_client',
  'cut_upstream',
  'cut_request',
  'proxy_stall',
  'truncate_frame',
  'corrupt_frame',
  'refuse_connections',
] as const;
export const FAULT_KINDS = [...SERVER_FAULT_KINDS, ...PROXY_FAULTS] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
type ProxyFaultName = (typeof PROXY_FAULTS)[number];
const isProxyFault = (kind: FaultKind): kind is ProxyFaultName => (PROXY_FAULTS as readonly string[]).includes(kind);

export interface ChaosOutcome {
  seed: number;
  completed: boolean;
  /** Times the task stopped (with its reason in `stops`) and was resumed from its transcript. */
  resumes: number;
  stops: string[];
  /** Faults injected: the server's as queued, the proxy's as they took effect. */
  faults: Partial<Record<FaultKind, number>>;
  /** Proxy faults armed whose moment never came (aimed past the end of a stream that closed first). */
  unfired: number;
  filesVerified: number;
  toolCalls: number;
  /** Why each request was resent: the errors the faults became, as the agent reported them. */
  retries: string[];
  /** Why the run is a failure; empty when nothing was lost. */
  losses: string[];
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
/** Stops (and resumes) a run may take before it counts as a loss; each auth fault is one. */
const MAX_RESUMES = 4;
/** Bytes of one response as the proxy sees it (~17 KB: `response.created` and `completed` echo the tools). */
const RESPONSE_BYTES = 18_000;
/** Frames (events) of one response: created, in_progress, item added, a delta or two, done, completed. */
const RESPONSE_FRAMES = 8;

/** The proxy's fault for a kind, with its point in the stream drawn from the seed. */
function proxyFault(kind: ProxyFaultName, next: () => number): Parameters<FaultProxy['arm']>[0] {
  const offset = Math.floor(next() * RESPONSE_BYTES);
  const frame = Math.floor(next() * RESPONSE_FRAMES);
  switch (kind) {
    case 'cut_client':
      return { kind: 'cut', stream: 'response', side: 'client', offset };
    case 'cut_upstream':
      return { kind: 'cut', stream: 'response', side: 'upstream', offset };
    case 'cut_request':
      return { kind: 'cut', stream: 'request', side: next() < 0.5 ? 'client' : 'upstream', offset: offset % 4000 };
    case 'proxy_stall':
      // Shorter and longer than the agent's idle timeout (400 ms): a late stream and an abandoned one.
      return { kind: 'stall', offset, ms: 50 + Math.floor(next() * 1200) };
    case 'truncate_frame':
      return { kind: 'truncate', frame, keep: next() };
    case 'corrupt_frame': {
      const how: Corruption = (['tls', 'header', 'payload'] as const)[Math.floor(next() * 3)] ?? 'tls';
      return { kind: 'corrupt', frame, how, at: next() };
    }
    case 'refuse_connections':
      return { kind: 'refuse', connections: 1 + Math.floor(next() * 3) };
  }
}

/** Why an edit's effect on the files is not "the state before it, or the state after it" (empty if it is). */
function halfApplied(before: Record<string, string>, after: Record<string, string>): string[] {
  const changed = FILES.filter((file) => after[file] !== before[file]);
  if (changed.length > 1) return [`one edit changed ${changed.join(', ')}`];
  return changed.flatMap((file) => {
    const added = (after[file] ?? '').startsWith(before[file] ?? '')
      ? (after[file] ?? '').slice((before[file] ?? '').length)
      : '';
    const ok = /^entry \d+\n$/.test(added) && !(before[file] ?? '').includes(added);
    return ok ? [] : [`an edit left ${file} as ${JSON.stringify(after[file])} from ${JSON.stringify(before[file])}`];
  });
}

const snapshot = (dir: string) =>
  Object.fromEntries(FILES.map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]));

/** One run; `keep` leaves its folder (workspace, transcript, the server's wire log) for a look at a failing seed. */
export async function chaosRun(seed: number, keep = false): Promise<ChaosOutcome> {
  const next = seeded(seed);
  // Most runs as the extension runs (WebSocket, HTTP after repeated failures); some on one transport only.
  const draw = next();
  const mode = draw < 0.6 ? 'auto' : draw < 0.8 ? 'ws' : 'http';
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-chaos-'));
  const dir = path.join(base, 'workspace');
  fs.mkdirSync(dir);
  for (const file of FILES) fs.writeFileSync(path.join(dir, file), 'start\n');
  const transcriptFile = path.join(base, 'session.jsonl');
  const outcome: ChaosOutcome = {
    seed,
    completed: false,
    resumes: 0,
    stops: [],
    faults: {},
    unfired: 0,
    filesVerified: 0,
    toolCalls: 0,
    retries: [],
    losses: [],
  };
  let port = 0;
  let server: LoopwireServer | undefined;
  const start = async () => {
    server = await startServer({
      scenarios: [scenario()],
      token: TOKEN,
      tps: 50_000,
      prefillUsPerToken: 0,
      port,
      ...(keep ? { logFile: path.join(base, 'wire.jsonl') } : {}),
    });
    port = server.port;
  };
  await start();
  // The agent reaches the server only through the proxy; the admin calls below go to the server directly.
  const proxy = await FaultProxy.start(port);
  let session: ModelTransport | undefined;
  let armed = 0;
  const admin = (fault: Record<string, unknown>, transport?: 'ws') =>
    fetch(`${(server as LoopwireServer).url.replace(/\/v1$/, '')}/admin/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fault, count: 1, ...(transport ? { transport } : {}) }),
    });
  const inject = async () => {
    if (next() < 0.4) return;
    await injectKind(FAULT_KINDS[Math.floor(next() * FAULT_KINDS.length)] as FaultKind);
    // Now and then two at once, on the same request: an error answer cut short, a restart mid-stall…
    if (next() < 0.15) await injectKind(PROXY_FAULTS[Math.floor(next() * PROXY_FAULTS.length)] as FaultKind);
  };
  const injectKind = async (kind: FaultKind) => {
    const after = 1 + Math.floor(next() * 6);
    if (isProxyFault(kind)) {
      armed++;
      return proxy.arm(proxyFault(kind, next), kind);
    }
    // The connection limit is WebSocket mode's alone; a session already on HTTP cannot meet it.
    if (kind === 'connection_limit' && session?.transport === 'http') return;
    outcome.faults[kind] = (outcome.faults[kind] ?? 0) + 1;
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
      case 'connection_limit':
        // What a socket at its age limit answers (the server's own, with `maxConnectionS` reached).
        return void (await admin(
          {
            kind: 'error',
            status: 400,
            code: 'websocket_connection_limit_reached',
            message:
              'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.',
          },
          'ws',
        ));
      case 'auth_error':
        // A key revoked mid-task: the agent stops with a reason, and a resume (the key fixed) goes on.
        return void (await admin({
          kind: 'error',
          status: 401,
          code: 'invalid_api_key',
          message: 'Incorrect API key.',
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
    // Every tool call first lets the seed pick a fault for the request that follows it; every edit is
    // checked to leave each file at its state before it or after it, whether it succeeded or not.
    const workspace = new Proxy(disk, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function' || !['readFile', 'applyPlan'].includes(String(key))) return value;
        return async (...args: unknown[]) => {
          await inject();
          const before = snapshot(dir);
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } finally {
            outcome.losses.push(...halfApplied(before, snapshot(dir)));
          }
        };
      },
    }) as Workspace;
    const agent = (transcript: Transcript) => {
      session = new ModelTransport({
        endpoint: proxy.url,
        apiKey: TOKEN,
        transport: mode,
        idleTimeoutMs: 400,
        backoffBaseMs: 10,
        backoffMaxMs: 50,
        emit,
      });
      return new Agent({
        transport: session,
        transcript,
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'chaos',
        toolSpecs: toolsFor('gpt-5.5'),
        approvals: approveAll,
        emit,
      });
    };
    let transcript = Transcript.create(
      { id: `chaos-${seed}`, createdAt: new Date().toISOString(), workspace: dir, model: 'gpt-5.5' },
      transcriptFile,
    );
    let done = await agent(transcript).run('Please write the entries.');
    session?.close(false);
    // Stopped with a reason: the session must be resumable from its transcript alone (and again, if a
    // later fault stops it again: each auth fault is one stop).
    while (done.status !== 'completed' && outcome.resumes < MAX_RESUMES) {
      outcome.resumes++;
      outcome.stops.push(done.reason);
      // A fault is something to retry or a reason to give; a crash of the loop is neither.
      if (done.reason.startsWith('an internal error'))
        outcome.losses.push(`stopped with no clear reason: ${done.reason}`);
      transcript = Transcript.load(transcriptFile);
      done = await agent(transcript).run(undefined);
      session?.close(false);
    }
    outcome.completed = done.status === 'completed';
    if (!outcome.completed) outcome.losses.push(`did not complete after ${outcome.resumes} resumes: ${done.reason}`);
    for (const event of events) if (event.type === 'retry') outcome.retries.push(event.reason);
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
    if (!isDeepStrictEqual(reloaded.header, transcript.header) || !isDeepStrictEqual(reloaded.items, transcript.items))
      outcome.losses.push('the transcript on disk does not reload to the session that ran');
  } finally {
    let fired = 0;
    for (const name of PROXY_FAULTS) {
      const n = proxy.fired[name] ?? 0;
      if (n > 0) outcome.faults[name] = n;
      fired += n;
    }
    outcome.unfired = armed - fired;
    await proxy.close();
    await server?.close();
    if (keep) process.stderr.write(`seed ${seed}: kept in ${base}\n`);
    else fs.rmSync(base, { recursive: true, force: true });
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
      .join(', ')} (${Object.values(faults).reduce((a, b) => a + b, 0)} in all)`,
    `proxy faults armed but never reached: ${outcomes.reduce((n, o) => n + o.unfired, 0)}`,
    `requests resent: ${outcomes.reduce((n, o) => n + o.retries.length, 0)}`,
    `tasks completed: ${outcomes.filter((o) => o.completed).length} (${outcomes.filter((o) => o.resumes > 0).length} after stopping and resuming, ${outcomes.reduce((n, o) => n + o.resumes, 0)} resumes)`,
    `stop reasons: ${stopReasons(outcomes)}`,
    `files verified: ${outcomes.reduce((n, o) => n + o.filesVerified, 0)} of ${outcomes.length * 3}`,
    `tool calls: ${outcomes.reduce((n, o) => n + o.toolCalls, 0)}`,
    `losses: ${losses.length === 0 ? 'none' : `\n  ${losses.join('\n  ')}`}`,
  ].join('\n');
}

/** Each distinct reason a task stopped for (ids and figures blanked), with its count. */
function stopReasons(outcomes: readonly ChaosOutcome[]): string {
  const counts = new Map<string, number>();
  for (const reason of outcomes.flatMap((o) => o.stops)) {
    const key = reason.replace(/\b\d+\b/g, 'N');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts.size === 0 ? 'none' : [...counts].map(([reason, n]) => `${n}× ${reason}`).join('; ');
}
