import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, type AgentEvent, ModelTransport, Transcript, approveAll } from '../../src/agent';
import { type ScenarioFile, type TurnRecord, startServer } from '../../src/server';
import { ReadLedger, toolsFor } from '../../src/tools';
import { NodeWorkspace } from '../../src/workspace/node/nodeWorkspace';

// Socket rotation endurance: a long session whose sockets are retired every few tens of milliseconds (by
// the client before the age limit, and by the server's own limit, shortened), so it crosses a hundred and
// more sockets. Every turn must be answered, every tool call run exactly once, and the full conversation
// sent again only once per new socket (its cache starts empty), never on a socket that had it.
// Usage: npx tsx test/reliability/rotation.ts [--calls 150] [--rotate-ms 20]

export interface RotationReport {
  toolCalls: number;
  turns: number;
  completed: boolean;
  sockets: number;
  rotations: number;
  fullResends: number;
  chainedTurns: number;
  /** Bytes the client sent in all, and what sending everything every turn would have cost. */
  bytesSent: number;
  bytesIfFull: number;
  ranTwice: string[];
  wallS: number;
}

const TOKEN = 'rotation-token';

function scenario(calls: number): ScenarioFile {
  const steps: ScenarioFile['scenarios'][number]['steps'] = [];
  for (let i = 0; i < calls; i++)
    steps.push({
      output: [
        {
          type: 'custom_tool_call',
          name: 'apply_patch',
          input: `*** Begin Patch\n*** Update File: log.txt\n@@\n+entry ${i}\n*** End Patch\n`,
        },
      ],
    });
  steps.push({ output: [{ type: 'message', text: 'Logged every entry.' }] });
  return { scenarios: [{ name: 'rotation', match: 'log the entries', steps }] };
}

export async function runRotation(calls: number, rotateMs: number): Promise<RotationReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-rotation-'));
  const workspaceDir = path.join(dir, 'ws');
  fs.mkdirSync(workspaceDir);
  fs.writeFileSync(path.join(workspaceDir, 'log.txt'), 'start\n');
  const turns: TurnRecord[] = [];
  const server = await startServer({
    token: TOKEN,
    // The model's own time (~25 tokens a turn: 5 ms) keeps the session long enough for its rotations however
    // fast the machine: at 50,000 tok/s a quick machine ran 60 calls in 0.2 s, 14 sockets of 10 ms.
    tps: 5_000,
    prefillUsPerToken: 0,
    scenarios: [scenario(calls)],
    maxConnectionS: 1,
    observe: (record) => turns.push(record),
  });
  const events: AgentEvent[] = [];
  const transport = new ModelTransport({
    endpoint: server.url,
    apiKey: TOKEN,
    transport: 'ws',
    rotateAfterMs: rotateMs,
    emit: (event) => events.push(event),
  });
  const started = performance.now();
  try {
    const agent = new Agent({
      transport,
      transcript: Transcript.create(
        { id: 'rotation', createdAt: new Date().toISOString(), workspace: workspaceDir, model: 'gpt-5.5' },
        path.join(dir, 'session.jsonl'),
      ),
      tools: { workspace: await NodeWorkspace.open(workspaceDir), reads: new ReadLedger() },
      model: 'gpt-5.5',
      instructions: 'rotation',
      toolSpecs: toolsFor('gpt-5.5'),
      approvals: approveAll,
      maxTurns: calls + 5,
      emit: (event) => events.push(event),
    });
    await agent.start();
    const done = await agent.run('Please log the entries.');
    const wallS = (performance.now() - started) / 1000;
    const text = fs.readFileSync(path.join(workspaceDir, 'log.txt'), 'utf8');
    const ranTwice = Array.from({ length: calls }, (_, i) => `entry ${i}`).filter(
      (line) => text.split('\n').filter((l) => l === line).length !== 1,
    );
    const metrics = events.flatMap((event) => (event.type === 'turn_finished' ? [event.metrics] : []));
    const warmups = events.filter((event) => event.type === 'transport' && event.state === 'warm').length;
    const answered = turns.filter((turn) => turn.outcome === 'completed' && turn.outputTokens > 0);
    const largest = Math.max(...metrics.map((m) => m.bytesSent));
    return {
      toolCalls: done.toolCalls,
      turns: done.turns,
      completed: done.status === 'completed',
      sockets: warmups,
      rotations: Math.max(0, warmups - 1),
      fullResends: metrics.filter((m) => !m.chained).length,
      chainedTurns: metrics.filter((m) => m.chained).length,
      bytesSent: metrics.reduce((n, m) => n + m.bytesSent, 0),
      bytesIfFull: metrics.length * largest,
      ranTwice: answered.length >= done.turns ? ranTwice : [...ranTwice, 'not every turn was answered'],
      wallS: Math.round(wallS * 10) / 10,
    };
  } finally {
    transport.close(false);
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function formatRotation(report: RotationReport): string {
  return [
    `session: ${report.turns} turns, ${report.toolCalls} tool calls, ${report.completed ? 'completed' : 'NOT completed'} in ${report.wallS} s`,
    `sockets: ${report.sockets} (${report.rotations} rotations); full-context requests: ${report.fullResends} (one per new socket at most), chained: ${report.chainedTurns}`,
    `bytes sent: ${(report.bytesSent / 1024).toFixed(1)} KB (every turn in full would be at most ${(report.bytesIfFull / 1024).toFixed(1)} KB)`,
    `tool calls not run exactly once: ${report.ranTwice.length === 0 ? 'none' : report.ranTwice.join(', ')}`,
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { calls: { type: 'string', default: '150' }, 'rotate-ms': { type: 'string', default: '20' } },
  });
  runRotation(Number(values.calls), Number(values['rotate-ms'])).then(
    (report) => {
      console.log(formatRotation(report));
      if (!report.completed || report.ranTwice.length > 0 || report.fullResends > report.sockets) process.exitCode = 1;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
