import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  type AgentEvent,
  type ApprovalMode,
  Transcript,
  createAgentSession,
  policyFor,
  sandboxInForce,
} from '../../../src/agent';
import type { SandboxSupport } from '../../../src/sandbox';
import type { ScenarioFile } from '../../../src/server';
import { BackgroundCommands, ReadLedger } from '../../../src/tools';
import type { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { type ServerProcess, TOKEN, startServerProcess } from '../loop/serverProcess';

// The sandbox's cost as a task pays it: a scripted model (the bundled server, its own process) makes 20
// exec_command calls, and the real agent loop runs them as `loopwire exec` does (createAgentSession, a
// BackgroundCommands, policyFor with the sandbox reader) in `all` (no sandbox) and in `auto` (workspace-write,
// network off), the modes taking turns. Every call must have run and exited 0: a declined or failed call
// would make a mode look fast for doing nothing.

/** What the task's calls run, in turn: two of the bench's commands, ten times each. */
export const TASK_LINES: readonly string[] = Array.from({ length: 20 }, (_, i) =>
  i % 2 === 0 ? 'git status' : 'node -e 0',
);
const PROMPT = 'sandbox bench task';
/** Fast enough that the model's time is small beside the commands', as the loop bench's fast cell. */
const TPS = '4000';

function scenario(): ScenarioFile {
  return {
    scenarios: [
      {
        name: 'sandbox-task',
        match: `^${PROMPT}$`,
        steps: [
          ...TASK_LINES.map((cmd) => ({
            output: [{ type: 'function_call' as const, name: 'exec_command', arguments: { cmd } }],
          })),
          { output: [{ type: 'message' as const, text: `I ran ${TASK_LINES.length} commands.` }] },
        ],
      },
    ],
  };
}

/** One run of the task in `mode`: its wall time in ms (the agent's own, from the prompt to its answer). */
async function runOnce(mode: ApprovalMode, server: ServerProcess, workspace: NodeWorkspace, support: SandboxSupport) {
  const failures: string[] = [];
  let ran = 0;
  const emit = (event: AgentEvent) => {
    if (event.type !== 'tool_finished') return;
    ran++;
    if (!event.ok || event.declined || !/exit code 0\b/.test(event.output))
      failures.push(`${event.name}: ${event.output.slice(0, 400)}`);
  };
  const session = createAgentSession({
    endpoint: server.url,
    apiKey: TOKEN,
    transport: 'ws',
    emit,
    proxy: { off: true },
  });
  const sessions = new BackgroundCommands();
  const agent = session.agent({
    transcript: Transcript.create({
      id: `sandbox-${mode}`,
      createdAt: new Date().toISOString(),
      workspace: workspace.root,
      model: 'gpt-5.5',
    }),
    tools: { workspace, reads: new ReadLedger(), sessions },
    // Nobody to ask: a call that would be asked is declined, and counted as a failure above.
    approvals: policyFor(
      mode,
      () => Promise.resolve(false),
      undefined,
      () => sandboxInForce(mode, { support }),
    ),
    maxTurns: TASK_LINES.length + 5,
    emit,
  });
  try {
    await agent.start();
    const done = await agent.run(PROMPT);
    if (done.status !== 'completed') throw new Error(`${mode}: the task ended ${done.status}: ${done.reason}`);
    if (ran !== TASK_LINES.length || failures.length > 0)
      throw new Error(`${mode}: ${ran} calls ran, ${failures.length} failed:\n${failures.join('\n')}`);
    return done.wallMs;
  } finally {
    session.close(false);
    await sessions.stopAll();
  }
}

/**
 * The task's wall times in `all` and in `auto`, `repetitions` of each after one unmeasured run of each;
 * `auto` null where there is no sandbox (there, auto runs nothing confined and would ask every call).
 */
export async function runSandboxTask(
  workspace: NodeWorkspace,
  support: SandboxSupport,
  repetitions: number,
  log: (line: string) => void,
): Promise<{ all: number[]; auto: number[] | null }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-sandbox-task-'));
  const file = path.join(dir, 'scenario.json');
  fs.writeFileSync(file, JSON.stringify(scenario()));
  const server = await startServerProcess(['--scenario', file, '--tps', TPS, '--prefill-us-per-token', '10']);
  const modes: ApprovalMode[] = support.available ? ['all', 'auto'] : ['all'];
  const walls = new Map<ApprovalMode, number[]>(modes.map((mode) => [mode, []]));
  try {
    for (const mode of modes) await runOnce(mode, server, workspace, support);
    for (let rep = 0; rep < repetitions; rep++)
      for (const mode of rep % 2 === 0 ? modes : [...modes].reverse()) {
        const wall = await runOnce(mode, server, workspace, support);
        walls.get(mode)?.push(wall);
        log(`  task rep ${rep + 1} ${mode.padEnd(4)} ${(wall / 1000).toFixed(2)} s`);
      }
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { all: walls.get('all') ?? [], auto: support.available ? (walls.get('auto') ?? []) : null };
}
