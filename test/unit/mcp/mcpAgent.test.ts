import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ApprovalRequest, askEach, readOnly } from '../../../src/agent';
import { type McpServers, startMcpServers } from '../../../src/mcp';
import type { ScenarioFile } from '../../../src/server';
import { BUILTIN_TOOLS, type ToolRegistry } from '../../../src/tools';
import { eventsOf, useAgentBench } from '../agent/agentHarness';
import { ECHO_SERVER, machineMcpSandbox, stdioServer, testServerEnv } from './mcpFixtures';

// The agent against the bundled server with the echo MCP server's tools: the model calls mcp__echo__say and
// the answer reaches it; a tool that does not say it only reads is approved like a task (asked under `ask`,
// declined under `read-only`, and then it never runs); a server that crashes mid-call ends no turn.

const call = (name: string, args: Record<string, unknown>) => ({
  type: 'function_call' as const,
  name,
  arguments: args,
});
const answer = (text: string) => ({ output: [{ type: 'message' as const, text }] });

const scenarios: ScenarioFile = {
  scenarios: [
    {
      name: 'say',
      match: '^say: (.*)$',
      steps: [{ output: [call('mcp__echo__say', { text: '{{1}}' })] }, answer('It said it.')],
    },
    {
      name: 'touch',
      match: '^touch: (.*)$',
      steps: [{ output: [call('mcp__echo__touch', { path: '{{1}}' })] }, answer('Done, or not.')],
    },
    {
      name: 'crash',
      match: '^crash$',
      steps: [{ output: [call('mcp__echo__crash', {})] }, answer('The server crashed.')],
    },
  ],
};

/** The transcript's output for each call, in order. */
const outputsOf = (items: readonly unknown[]) =>
  items.flatMap((item) => {
    const output = item as { type?: string; output?: unknown };
    return output.type === 'function_call_output' && typeof output.output === 'string' ? [output.output] : [];
  });

describe('mcp: the agent runs MCP tools', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenarios);
  let servers: McpServers;
  let registry: ToolRegistry;
  beforeEach(async () => {
    // In the sandbox where this machine has one, writing the bench's workspace, as a session's would.
    const sandbox = machineMcpSandbox([bench.dir]);
    servers = await startMcpServers([stdioServer('echo', ECHO_SERVER)], {
      log: () => undefined,
      sandbox,
      env: testServerEnv(),
    });
    registry = BUILTIN_TOOLS.with(servers.tools);
  });
  afterEach(() => servers.close());

  it('offers mcp__echo__say with its schema, runs it, and its answer reaches the model', async () => {
    const { agent, transcript } = await bench.agent({ registry });
    const done = await agent.run('say: hello from MCP');
    assert.equal(done.status, 'completed', done.reason);
    assert.deepEqual(outputsOf(transcript.items), ['echo: hello from MCP']);
    const started = eventsOf(bench.events, 'tool_started')[0];
    assert.equal(started?.name, 'mcp__echo__say');
    assert.equal(registry.summarize('mcp__echo__say', started.input), 'echo · say: hello from MCP');
    // The output went to the model in the next request (chained: the output is what it sent), which the
    // server accepted as the answer to the call it made.
    const [, second] = eventsOf(bench.events, 'turn_finished');
    assert.equal(second?.metrics.chained, true);
    assert.equal(second?.metrics.itemsSent, 1);
    assert.equal(bench.turns[1]?.outcome, 'completed');
    const offered = registry.offer('gpt-5.5').find((tool) => tool.name === 'mcp__echo__say');
    assert.deepEqual(offered, {
      type: 'function',
      name: 'mcp__echo__say',
      description: 'Says the text back.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string', description: 'What to say.' } },
        required: ['text'],
      },
      strict: false,
    });
  });

  it('asks before a tool that does not say it only reads, and runs it once allowed', async () => {
    const file = path.join(bench.dir, 'touched.txt');
    const asked: ApprovalRequest[] = [];
    const approvals = askEach((request) => {
      asked.push(request);
      return Promise.resolve(true);
    });
    const { agent, transcript } = await bench.agent({ registry, approvals });
    assert.equal((await agent.run(`touch: ${file}`)).status, 'completed');
    assert.deepEqual(
      asked.map(({ name, effect, input }) => ({ name, effect, input: JSON.parse(input) as unknown })),
      [{ name: 'mcp__echo__touch', effect: 'task', input: { path: file } }],
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'touched');
    assert.deepEqual(outputsOf(transcript.items), [`touched ${file}`]);
  });

  it('under read-only it is declined and never runs; a read-only tool still runs', async () => {
    const file = path.join(bench.dir, 'touched.txt');
    const { agent, transcript } = await bench.agent({ registry, approvals: readOnly });
    assert.equal((await agent.run(`touch: ${file}`)).status, 'completed');
    assert.equal(fs.existsSync(file), false, 'the declined call did not run');
    assert.match(outputsOf(transcript.items)[0] ?? '', /^The user declined this mcp__echo__touch call/);
    assert.equal(eventsOf(bench.events, 'tool_finished')[0]?.declined, true);
    assert.equal((await agent.run('say: still reading')).status, 'completed');
    assert.equal(outputsOf(transcript.items)[1], 'echo: still reading');
  });

  it('without the registry an MCP tool is unknown: the model is told, nothing runs', async () => {
    const { agent, transcript } = await bench.agent({ approvals: readOnly });
    assert.equal((await agent.run('say: hello')).status, 'completed');
    assert.match(outputsOf(transcript.items)[0] ?? '', /^There is no tool 'mcp__echo__say'/);
  });

  it('a server crashing mid-call gives the model a clear output, and the task goes on to its answer', async () => {
    const { agent, transcript } = await bench.agent({ registry });
    const done = await agent.run('crash');
    assert.equal(done.status, 'completed', done.reason);
    assert.match(
      outputsOf(transcript.items)[0] ?? '',
      /^The MCP server 'echo' stopped while running crash; its last words on stderr: [^]*crashing on purpose/,
    );
    assert.ok(eventsOf(bench.events, 'message').some((event) => event.text === 'The server crashed.'));
  });
});
