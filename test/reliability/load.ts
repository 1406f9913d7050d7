import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { type ScenarioFile, startServer } from '../../src/server';

// Load on the bundled server: many WebSocket sessions at once, each a chained conversation of tool calls
// (only the new output sent per turn, `previous_response_id` for the rest), plus HTTP sessions that resend
// the whole conversation every turn, all against one server in this process. Every turn must be answered;
// the figures are printed (never asserted on time): turn latency percentiles, peak RSS, and RSS after the
// sessions close against the baseline before they opened.
// Usage: node --expose-gc --import tsx test/reliability/load.ts [--sessions 200] [--turns 30] [--http 20]

export interface LoadOptions {
  sessions: number;
  turns: number;
  httpSessions: number;
  /** Characters of each tool output sent back: the context grows by this much per turn. */
  outputChars?: number;
  /** The whole load this many times on one server (default 1). */
  rounds?: number;
  /** The server's prompt-prefix cache size (its default: 100,000 entries). */
  promptCacheEntries?: number;
}

export interface LoadReport {
  sessions: number;
  httpSessions: number;
  turnsAnswered: number;
  turnsExpected: number;
  errors: string[];
  /** Client-measured: request sent → first event, and → response.completed, in ms. */
  firstEventMs: { p50: number; p99: number };
  completedMs: { p50: number; p99: number };
  rssBaselineMb: number;
  rssPeakMb: number;
  rssAfterMb: number;
  heapBaselineMb: number;
  heapAfterMb: number;
  /** JS heap in use after each round (the whole load again on the same server). */
  heapAfterRounds: number[];
  wallS: number;
}

const TOKEN = 'load-token';
const TOOL = {
  type: 'function',
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

function scenario(turns: number): ScenarioFile {
  const steps: ScenarioFile['scenarios'][number]['steps'] = [];
  for (let i = 1; i < turns; i++)
    steps.push({ output: [{ type: 'function_call', name: 'read_file', arguments: { path: `src/file${i}.ts` } }] });
  steps.push({ output: [{ type: 'message', text: 'All files read.' }] });
  return { scenarios: [{ name: 'load', match: 'load session', steps }] };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number) * 100) / 100;
}

type Frame = { type?: string; response?: { id?: string; output?: { type?: string; call_id?: string }[] } };

/** One WebSocket session: `turns` chained turns on one socket. */
async function wsSession(url: string, index: number, options: LoadOptions, stats: Stats): Promise<void> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/responses`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let pending:
    { sent: number; first?: number; resolve: (frame: Frame) => void; reject: (e: Error) => void } | undefined;
  socket.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as Frame;
    if (!pending) return;
    pending.first ??= performance.now();
    if (frame.type === 'response.completed') pending.resolve(frame);
    else if (frame.type === 'error' || frame.type === 'response.failed')
      pending.reject(new Error(`session ${index}: ${data.toString('utf8').slice(0, 200)}`));
  });
  socket.on('close', () => pending?.reject(new Error(`session ${index}: the socket closed`)));
  const turn = (body: Record<string, unknown>) =>
    new Promise<Frame>((resolve, reject) => {
      const sent = performance.now();
      pending = {
        sent,
        resolve: (frame) => {
          const first = pending?.first ?? sent;
          stats.first.push(first - sent);
          stats.completed.push(performance.now() - sent);
          stats.answered++;
          pending = undefined;
          resolve(frame);
        },
        reject,
      };
      socket.send(JSON.stringify({ type: 'response.create', model: 'gpt-5.5', store: false, tools: [TOOL], ...body }));
    });
  try {
    let frame = await turn({ input: [{ type: 'message', role: 'user', content: `load session ${index}` }] });
    for (let t = 1; t < options.turns; t++) {
      const call = frame.response?.output?.find((item) => item.type === 'function_call');
      if (!call?.call_id) throw new Error(`session ${index}: turn ${t} asked for no tool call`);
      frame = await turn({
        previous_response_id: frame.response?.id,
        input: [
          { type: 'function_call_output', call_id: call.call_id, output: 'x'.repeat(options.outputChars ?? 2000) },
        ],
      });
    }
  } finally {
    socket.close();
  }
}

/** One HTTP session: every turn a POST with the whole conversation so far, streamed back as SSE. */
async function httpSession(url: string, index: number, options: LoadOptions, stats: Stats): Promise<void> {
  const input: unknown[] = [{ type: 'message', role: 'user', content: `load session http ${index}` }];
  for (let t = 0; t < options.turns; t++) {
    const sent = performance.now();
    const response = await fetch(`${url}/responses`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5.5', store: false, stream: true, tools: [TOOL], input }),
    });
    if (!response.ok || !response.body) throw new Error(`http session ${index}: HTTP ${response.status}`);
    let first: number | undefined;
    let text = '';
    for await (const chunk of response.body) {
      first ??= performance.now();
      text += Buffer.from(chunk as Uint8Array).toString('utf8');
    }
    const completed = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Frame)
      .find((frame) => frame.type === 'response.completed');
    if (!completed) throw new Error(`http session ${index}: turn ${t + 1} did not complete`);
    stats.first.push((first ?? sent) - sent);
    stats.completed.push(performance.now() - sent);
    stats.answered++;
    const output = completed.response?.output ?? [];
    input.push(...output);
    const call = output.find((item) => item.type === 'function_call');
    if (call?.call_id)
      input.push({
        type: 'function_call_output',
        call_id: call.call_id,
        output: 'x'.repeat(options.outputChars ?? 2000),
      });
  }
}

interface Stats {
  first: number[];
  completed: number[];
  answered: number;
}

const collect = () => (globalThis as { gc?: () => void }).gc?.();

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const server = await startServer({
    token: TOKEN,
    tps: 20_000,
    prefillUsPerToken: 1,
    scenarios: [scenario(options.turns)],
    ...(options.promptCacheEntries === undefined ? {} : { limits: { promptCacheEntries: options.promptCacheEntries } }),
  });
  // The baseline is a server that has served: one short session first, so the tokenizer's tables and the
  // code paths are loaded, as they are in any server that answered a request.
  const warmup: Stats = { first: [], completed: [], answered: 0 };
  await wsSession(server.url, -1, { ...options, turns: Math.min(3, options.turns) }, warmup);
  collect();
  const { rss: baseline, heapUsed: heapBaseline } = process.memoryUsage();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const stats: Stats = { first: [], completed: [], answered: 0 };
  const errors: string[] = [];
  const started = performance.now();
  const url = server.url;
  const settle = async () => {
    // The sockets are closed; give the server a moment to drop their caches, then measure what stays.
    await new Promise((resolve) => setTimeout(resolve, 500));
    collect();
    await new Promise((resolve) => setTimeout(resolve, 200));
    collect();
  };
  const heapAfterRounds: number[] = [];
  let wallS = 0;
  // Each round is the whole load again on the same server: what is held after each tells a cache that
  // fills to its cap from a leak that grows with every round.
  for (let round = 0; round < (options.rounds ?? 1); round++) {
    const runs = [
      ...Array.from({ length: options.sessions }, (_, i) =>
        wsSession(url, i + round * options.sessions, options, stats),
      ),
      ...Array.from({ length: options.httpSessions }, (_, i) => httpSession(url, i, options, stats)),
    ];
    for (const outcome of await Promise.allSettled(runs))
      if (outcome.status === 'rejected') errors.push(String(outcome.reason));
    if (round === 0) wallS = (performance.now() - started) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    await settle();
    heapAfterRounds.push(mb(process.memoryUsage().heapUsed));
  }
  clearInterval(sampler);
  const after = process.memoryUsage();
  await server.close();
  return {
    sessions: options.sessions,
    httpSessions: options.httpSessions,
    turnsAnswered: stats.answered,
    turnsExpected: (options.sessions + options.httpSessions) * options.turns * (options.rounds ?? 1),
    errors,
    firstEventMs: { p50: percentile(stats.first, 50), p99: percentile(stats.first, 99) },
    completedMs: { p50: percentile(stats.completed, 50), p99: percentile(stats.completed, 99) },
    rssBaselineMb: mb(baseline),
    rssPeakMb: mb(peak),
    rssAfterMb: mb(after.rss),
    heapBaselineMb: mb(heapBaseline),
    heapAfterMb: mb(after.heapUsed),
    heapAfterRounds,
    wallS: Math.round(wallS * 10) / 10,
  };
}

const percentOver = (after: number, before: number) => {
  const percent = Math.round((after / before - 1) * 100);
  return percent >= 0 ? `${percent}% over baseline` : `${-percent}% under baseline`;
};

export function formatLoad(report: LoadReport): string {
  return [
    `sessions: ${report.sessions} WebSocket (chained) + ${report.httpSessions} HTTP (full resend), ${report.turnsExpected / (report.sessions + report.httpSessions) / report.heapAfterRounds.length} turns each, all at once${report.heapAfterRounds.length > 1 ? `, ${report.heapAfterRounds.length} rounds` : ''}`,
    `turns answered: ${report.turnsAnswered} of ${report.turnsExpected}; errors: ${report.errors.length}`,
    `turn latency (client, all sessions): first event p50 ${report.firstEventMs.p50} ms, p99 ${report.firstEventMs.p99} ms; completed p50 ${report.completedMs.p50} ms, p99 ${report.completedMs.p99} ms`,
    `memory (this process: server and clients): RSS ${report.rssBaselineMb} MB before, peak ${report.rssPeakMb} MB, ${report.rssAfterMb} MB after the sessions closed (${percentOver(report.rssAfterMb, report.rssBaselineMb)}); JS heap in use ${report.heapBaselineMb} MB before, ${report.heapAfterMb} MB after (${percentOver(report.heapAfterMb, report.heapBaselineMb)}: what is still held; RSS also counts pages V8 keeps for reuse)`,
    ...(report.heapAfterRounds.length > 1
      ? [
          `JS heap after each round of the same load: ${report.heapAfterRounds.join(' → ')} MB (from ${report.heapBaselineMb} MB)`,
        ]
      : []),
    `wall: ${report.wallS} s (the first round)`,
    ...report.errors.slice(0, 5).map((error) => `  error: ${error}`),
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: '200' },
      turns: { type: 'string', default: '30' },
      http: { type: 'string', default: '20' },
      json: { type: 'string' },
      'prompt-cache': { type: 'string' },
      rounds: { type: 'string', default: '1' },
    },
  });
  runLoad({
    sessions: Number(values.sessions),
    turns: Number(values.turns),
    httpSessions: Number(values.http),
    rounds: Number(values.rounds),
    ...(values['prompt-cache'] === undefined ? {} : { promptCacheEntries: Number(values['prompt-cache']) }),
  }).then(
    (report) => {
      console.log(formatLoad(report));
      if (values.json) fs.writeFileSync(values.json, JSON.stringify(report, null, 2));
      if (report.errors.length > 0 || report.turnsAnswered !== report.turnsExpected) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
