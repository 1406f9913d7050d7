import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type CustomAgent, type FrontChoices, Transcript, approveAll, createAgentSession } from '../../../src/agent';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { requestsOf, useAgentBench } from './agentHarness';

// A custom agent picked as the chat goes (the composer's agent picker: AgentSpec.choices' `agent`), against the
// real server: picked before the first prompt, its body heads the context with ours and its tools are the only
// ones offered; its model goes unless the picker names one; Loopwire picked again sends our own instructions
// again at the end of the chain (history is not rewritten), with every tool.

const SCENARIOS = {
  scenarios: [
    { name: 'hello', match: 'hello', steps: [{ output: [{ type: 'message' as const, text: 'Hi.' }] }] },
    {
      // A model that calls a tool it was not offered: the agent's tools must stop it, not only the offer.
      name: 'touch',
      match: 'make the file',
      steps: [
        { output: [{ type: 'function_call' as const, name: 'exec_command', arguments: { cmd: 'touch made.txt' } }] },
        { output: [{ type: 'message' as const, text: 'Done.' }] },
      ],
    },
  ],
};

const REVIEWER: CustomAgent = {
  name: 'reviewer',
  description: 'Reviews',
  tools: ['read', 'search'],
  model: 'gpt-5.2',
  instructions: 'Only review. Report by file and line.',
  label: '.github/agents/reviewer.agent.md',
  scope: 'workspace',
};

interface Body {
  model: string;
  tools: { name: string }[];
  input: { role?: string; content?: string | { text?: string }[] }[];
  generate?: boolean;
}

const textOf = (item: Body['input'][number]) =>
  typeof item.content === 'string' ? item.content : (item.content ?? []).map((part) => part.text ?? '').join('');

describe('agent: a custom agent picked as the chat goes', function () {
  this.timeout(20_000);
  const bench = useAgentBench(SCENARIOS, {}, { logBodies: true });

  it('heads the first request with its body and tools; Loopwire again: our instructions follow, every tool', async () => {
    let chosen: FrontChoices = { agent: REVIEWER };
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const agent = session.agent({
      transcript: Transcript.create({ id: 'c', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' }),
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      choices: () => chosen,
      emit: () => undefined,
    });
    await agent.start();
    assert.equal((await agent.run('hello')).status, 'completed');
    chosen = { agent: REVIEWER, model: 'gpt-5.5' };
    assert.equal((await agent.run('hello again')).status, 'completed');
    chosen = { agent: null };
    assert.equal((await agent.run('hello at last')).status, 'completed');
    session.close(false);
    const all = requestsOf(await bench.wire()).map((line) => line.body as Body);
    const bodies = all.filter((body) => body.generate !== false);
    assert.equal(bodies.length, 3);
    const [first, second, third] = bodies as [Body, Body, Body];
    assert.equal(first.model, 'gpt-5.2', "the agent's model, the picker naming none");
    assert.deepEqual(first.tools.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
    assert.equal(second.model, 'gpt-5.5', "the picker's model wins");
    assert.deepEqual(second.tools.map((tool) => tool.name).sort(), ['find_files', 'read_file', 'search_text']);
    assert.ok(
      third.tools.some((tool) => tool.name === 'exec_command'),
      'Loopwire again: every tool',
    );
    const head = (body: Body) => body.input.filter((item) => item.role === 'developer').map(textOf);
    // The context's head (the warm-up's, which the first request chains from, or the first request's): ours, then
    // the agent's.
    assert.match(
      head(all[0] as Body).join('\n'),
      /# Custom agent: reviewer\n[^]*Only review\. Report by file and line\./,
    );
    assert.deepEqual(
      third.input.map((item) => item.role),
      ['developer', 'user'],
      'chained: our instructions again, then the prompt',
    );
    assert.doesNotMatch(head(third)[0] ?? '', /# Custom agent:/);
  });

  it("refuses a call to a tool outside the agent's tools (or a prompt's), as an unknown tool; Loopwire runs it", async () => {
    let chosen: FrontChoices = { agent: REVIEWER };
    const outputs: string[] = [];
    const session = createAgentSession({
      endpoint: bench.server.url,
      apiKey: 'test-token',
      transport: 'ws',
      emit: () => undefined,
    });
    const agent = session.agent({
      transcript: Transcript.create({ id: 'd', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' }),
      tools: { workspace: await NodeWorkspace.open(bench.dir), reads: new ReadLedger() },
      approvals: approveAll,
      choices: () => chosen,
      emit: (event) => {
        if (event.type === 'tool_finished') outputs.push(event.output);
      },
    });
    await agent.start();
    assert.equal((await agent.run('make the file')).status, 'completed');
    assert.match(outputs[0] ?? '', /^There is no tool 'exec_command'\. The tools are: /);
    assert.equal(fs.existsSync(path.join(bench.dir, 'made.txt')), false, 'the command did not run');
    chosen = { tools: ['read'] };
    assert.equal((await agent.run('make the file again')).status, 'completed');
    assert.match(outputs[1] ?? '', /^There is no tool 'exec_command'/, "a prompt file's tools narrow what runs too");
    assert.equal(fs.existsSync(path.join(bench.dir, 'made.txt')), false);
    chosen = { agent: null };
    assert.equal((await agent.run('make the file at last')).status, 'completed');
    assert.equal(fs.existsSync(path.join(bench.dir, 'made.txt')), true, 'with every tool, the same call runs');
    session.close(false);
  });
});
