import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type AgentEvent,
  type ApprovalPolicy,
  type DoneEvent,
  type SubagentLimits,
  Transcript,
  approveAll,
  createAgentSession,
} from '../../../src/agent';
import type { ScenarioFile } from '../../../src/server';
import { BackgroundCommands, ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import type { AgentBench } from './agentHarness';

// Subagents against the bundled server: the scripted parents and helpers the tests play, and an agent built
// as the front ends build it (createAgentSession, with subagents) on the bench's server and folder.

const call = (name: string, args: Record<string, unknown>) => ({
  type: 'function_call' as const,
  name,
  arguments: args,
});
const say = (text: string) => ({ output: [{ type: 'message' as const, text }] });
const spawn = (message: string, extra: Record<string, unknown> = {}) => call('spawn_agent', { message, ...extra });
const addFile = (file: string, line: string) => `*** Begin Patch\n*** Add File: ${file}\n+${line}\n*** End Patch`;
const waitFor = (...outputs: number[]) =>
  call('wait', { ids: outputs.map((n) => `{{output.${n}.agent_id}}`), timeout_ms: 20_000 });

export const SCENARIOS: ScenarioFile = {
  scenarios: [
    {
      name: 'two-helpers',
      match: '^two helpers',
      steps: [
        { output: [spawn('helper alpha reads a.txt'), spawn('helper beta reads b.txt')] },
        { output: [waitFor(1, 2)] },
        { output: [waitFor(1, 2)] },
        say('both helpers answered'),
      ],
    },
    {
      name: 'helper-reads',
      match: '^helper (?<name>\\w+) reads (?<file>\\S+)',
      steps: [{ output: [call('read_file', { path: '{{file}}' })] }, say('{{name}} read {{file}}')],
    },
    {
      name: 'writer',
      match: '^a helper that writes',
      steps: [{ output: [spawn('helper touches made-by-helper')] }, { output: [waitFor(1)] }, say('the writer ended')],
    },
    {
      name: 'helper-touches',
      match: '^helper touches (?<file>\\S+)',
      steps: [{ output: [call('exec_command', { cmd: 'touch {{file}}' })] }, say('tried to touch {{file}}')],
    },
    {
      name: 'patcher',
      match: '^a helper that patches',
      steps: [{ output: [spawn('helper adds patched.txt')] }, { output: [waitFor(1)] }, say('the patcher ended')],
    },
    {
      name: 'helper-patches',
      match: '^helper adds (?<file>\\S+)',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: addFile('{{file}}', 'patched') }] },
        say('added {{file}}'),
      ],
    },
    {
      name: 'napper-and-reader',
      match: '^a napper and a reader',
      steps: [
        { output: [spawn('helper dozes napper.pid'), spawn('helper alpha reads a.txt')] },
        { output: [waitFor(1)] },
        { output: [waitFor(2)] },
        say('the reader answered'),
      ],
    },
    {
      name: 'helper-dozes',
      match: '^helper dozes (?<file>\\S+)',
      steps: [{ output: [call('exec_command', { cmd: 'echo $$ > {{file}}; exec sleep 30' })] }, say('napped')],
    },
    {
      name: 'sleepers',
      match: '^two sleepers',
      steps: [
        { output: [spawn('helper sleeps 8'), spawn('helper sleeps 8')] },
        { output: [waitFor(1, 2)] },
        say('the sleepers ended'),
      ],
    },
    {
      name: 'helper-sleeps',
      match: '^helper sleeps (?<s>\\d+)',
      steps: [{ output: [call('exec_command', { cmd: 'sleep {{s}}' })] }, say('slept {{s}} s')],
    },
    {
      name: 'closer',
      match: '^close a helper',
      steps: [
        { output: [spawn('helper sleeps 8')] },
        { output: [call('close_agent', { id: '{{output.1.agent_id}}' })] },
        say('closed it'),
      ],
    },
    {
      name: 'forker',
      match: '^fork a helper',
      steps: [
        { output: [spawn('helper forked answers', { fork_context: true })] },
        { output: [waitFor(1)] },
        say('the fork answered'),
      ],
    },
    { name: 'helper-forked', match: '^helper forked answers', steps: [say('the forked helper saw the parent')] },
    {
      name: 'redirect',
      match: '^redirect a helper',
      steps: [
        { output: [spawn('helper sleeps 8')] },
        {
          output: [
            call('send_input', { id: '{{output.1.agent_id}}', message: 'helper alpha reads a.txt', interrupt: true }),
          ],
        },
        { output: [waitFor(1)] },
        say('redirected'),
      ],
    },
    {
      name: 'steer',
      match: '^steer a helper',
      steps: [
        { output: [spawn('helper sleeps 1')] },
        { output: [call('send_input', { id: '{{output.1.agent_id}}', message: 'helper alpha reads a.txt' })] },
        { output: [waitFor(1)] },
        say('steered'),
      ],
    },
    {
      name: 'five',
      match: '^five helpers',
      steps: [{ output: [1, 2, 3, 4, 5].map(() => spawn('helper sleeps 1')) }, say('spawned what I could')],
    },
    {
      name: 'spawn-and-go',
      match: '^spawn and answer',
      steps: [{ output: [spawn('helper sleeps 1')] }, say('started a helper and answered')],
    },
  ],
};

/** An agent on the bench's server as `loopwire exec` builds it (with subagents), its events in `events`. */
export async function subagentParent(
  bench: AgentBench,
  events: AgentEvent[],
  approvals: ApprovalPolicy = approveAll,
  limits: SubagentLimits = {},
  /** A kept session to resume (loaded from its file); default: a new one at the bench's transcript file. */
  resumed?: Transcript,
): Promise<{
  run: (prompt: string, signal?: AbortSignal) => Promise<DoneEvent>;
  close: () => void;
  transcript: Transcript;
}> {
  const workspace = await NodeWorkspace.open(bench.dir);
  const emit = (event: AgentEvent) => events.push(event);
  const sessions = new BackgroundCommands();
  const session = createAgentSession({ endpoint: bench.server.url, apiKey: 'test-token', transport: 'ws', emit });
  fs.mkdirSync(path.dirname(bench.transcriptFile), { recursive: true });
  const transcript =
    resumed ??
    Transcript.create(
      { id: 'parent', createdAt: new Date().toISOString(), workspace: bench.dir, model: 'gpt-5.5' },
      bench.transcriptFile,
    );
  const agent = session.agent({
    model: 'gpt-5.5',
    transcript,
    // As exec runs it: commands may go on in the background, and Stop ends them.
    tools: { workspace, reads: new ReadLedger(), sessions },
    approvals,
    subagents: limits,
    emit,
  });
  await agent.start();
  return {
    transcript,
    run: (prompt, signal) => agent.run(prompt, signal),
    close: () => {
      session.close(false);
      void sessions.stopAll();
    },
  };
}

/** The subagent an event is of ('' for the parent's own). */
export const agentOf = (event: AgentEvent): string => event.agent?.id ?? '';
