// The agent loop's own cost per turn, WebSocket (chained) against HTTP (full context every turn), on one
// scenario: 20 tool calls, a ~30 KB file read first, so the history grows as in a real task. The modes run
// interleaved in one process against one in-process server; figures are medians over the runs.
// Run: npx tsx test/bench/agentOverhead.ts [--runs 5]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent, type AgentEvent, ModelTransport, Transcript, type TurnMetrics, approveAll } from '../../src/agent';
import { type ScenarioFile, startServer } from '../../src/server';
import { ReadLedger, toolsFor } from '../../src/tools';
import { NodeWorkspace } from '../../src/workspace/node/nodeWorkspace';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const BIG = Array.from(
  { length: 800 },
  (_, i) => `export const value${i} = compute(${i}, 'a realistic line of code');`,
).join('\n');

const steps: ScenarioFile['scenarios'][number]['steps'] = [
  { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'big.ts' } }] },
];
for (let i = 1; i < 20; i++)
  steps.push({
    output: [
      i % 2
        ? { type: 'function_call', name: 'search_text', arguments: { query: `value${i * 7}\\b`, is_regex: true } }
        : {
            type: 'function_call',
            name: 'read_file',
            arguments: { path: 'big.ts', start_line: i * 20, end_line: i * 20 + 40 },
          },
    ],
  });
steps.push({ output: [{ type: 'message', text: 'Done.' }] });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const p99 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.99))] ?? 0;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-bench-'));
  fs.writeFileSync(path.join(dir, 'big.ts'), `${BIG}\n`);
  const server = await startServer({ scenarios: [{ scenarios: [{ name: 'bench', match: 'bench', steps }] }] });
  const workspace = await NodeWorkspace.open(dir);
  const results: Record<'ws' | 'http', { wall: number[]; turns: TurnMetrics[] }> = {
    ws: { wall: [], turns: [] },
    http: { wall: [], turns: [] },
  };
  for (let run = 0; run < runs; run++) {
    for (const mode of run % 2 ? (['http', 'ws'] as const) : (['ws', 'http'] as const)) {
      const turns: TurnMetrics[] = [];
      const emit = (event: AgentEvent) => {
        if (event.type === 'turn_finished') turns.push(event.metrics);
      };
      const transport = new ModelTransport({ endpoint: server.url, transport: mode, emit });
      const agent = new Agent({
        transport,
        transcript: Transcript.create({ id: 'bench', createdAt: '', workspace: dir, model: 'gpt-5.5' }),
        tools: { workspace, reads: new ReadLedger() },
        model: 'gpt-5.5',
        instructions: 'bench',
        toolSpecs: toolsFor('gpt-5.5'),
        approvals: approveAll,
        emit,
      });
      await agent.start();
      const done = await agent.run('bench');
      transport.close(false);
      if (done.status !== 'completed') throw new Error(`${mode}: ${done.reason}`);
      results[mode].wall.push(done.wallMs);
      results[mode].turns.push(...turns.slice(1));
    }
  }
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(
    `20 tool calls, a ${(BIG.length / 1024).toFixed(0)} KB read first; ${runs} runs per mode, interleaved; turns 2-21`,
  );
  for (const mode of ['ws', 'http'] as const) {
    const { wall, turns } = results[mode];
    const before = turns.map((m) => m.overheadBeforeMs);
    const after = turns.flatMap((m) => (m.overheadAfterMs === null ? [] : [m.overheadAfterMs]));
    console.log(
      `${mode.padEnd(4)} wall ${median(wall).toFixed(0)} ms | overhead before p50 ${median(before).toFixed(2)} p99 ${p99(before).toFixed(2)} ms, after p50 ${median(after).toFixed(2)} ms | ` +
        `sent/turn p50 ${(median(turns.map((m) => m.bytesSent)) / 1024).toFixed(1)} KB | received/turn ${(median(turns.map((m) => m.bytesReceived)) / 1024).toFixed(1)} KB | first event p50 ${median(turns.map((m) => m.timeToFirstEventMs)).toFixed(2)} ms | input tokens p50 ${median(turns.map((m) => m.inputTokens))}`,
    );
  }
}

void main();
