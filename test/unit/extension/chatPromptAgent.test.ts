import * as assert from 'node:assert/strict';
import { type CustomAgent, findPromptFiles } from '../../../src/agent';
import type { SlashPort } from '../../../src/extension/chat/composer/chatSlash';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// A prompt file's `agent` in the chat panel, against the real server: a custom agent's name runs that prompt
// as the agent (its instructions, only its tools), the next prompt as the chat was; `ask` runs it in the
// read-only mode (an edit is declined); a name that is no agent is said, the text given back, nothing sent.

const file = (agent: string, body: string) => ['---', `agent: ${agent}`, '---', body, ''].join('\n');
const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-notes\n+notes, changed\n*** End Patch\n';

const scenario: ScenarioFile = {
  scenarios: [
    { name: 'review', match: 'Review the notes', steps: [{ output: [{ type: 'message', text: 'Reviewed.' }] }] },
    { name: 'next', match: 'and now', steps: [{ output: [{ type: 'message', text: 'Done.' }] }] },
    {
      name: 'change',
      match: 'Change the notes',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Could not.' }] },
      ],
    },
  ],
};

const REVIEWER: CustomAgent = {
  name: 'reviewer',
  description: 'Reviews',
  tools: ['read', 'search'],
  instructions: 'Only review. Report by file and line.',
  label: '.github/agents/reviewer.agent.md',
  scope: 'workspace',
};

type Body = { tools?: { name?: string }[]; input?: unknown[]; instructions?: string; generate?: boolean };

describe("chat panel host: a prompt file's agent", function () {
  this.timeout(30_000);
  const bench = useAgentBench(
    scenario,
    {
      'notes.txt': 'notes\n',
      '.github/prompts/look.prompt.md': file('reviewer', 'Review the notes.'),
      '.github/prompts/change.prompt.md': file('ask', 'Change the notes.'),
      '.github/prompts/stranger.prompt.md': file('nobody', 'Review the notes.'),
    },
    { tps: 2_000, logBodies: true },
  );
  const ui = useChatBench(bench);
  const port = (): SlashPort => ({
    find: async () => ({ prompts: await findPromptFiles([bench.dir]), skills: [] }),
    root: () => bench.dir,
    review: () => Promise.resolve(false),
    agents: () => Promise.resolve([REVIEWER]),
  });

  it('runs the prompt as the custom agent it names, and the next prompt as the chat was', async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('/look')).ok, true);
    assert.equal((await chat.ask('and now the rest')).ok, true);
    const all = requestsOf(await bench.wire()).map((line) => (line.body ?? {}) as Body);
    const [first, second] = all.filter((body) => body.generate !== false);
    const names = (body: Body | undefined) => (body?.tools ?? []).map((tool) => tool.name).sort();
    assert.deepEqual(names(first), ['find_files', 'read_file', 'search_text'], "the agent's tools");
    // Its section heads the context: in the warm-up the first request chains from, or in that request.
    const head = all.slice(0, all.indexOf(second as Body));
    assert.match(JSON.stringify(head), /# Custom agent: reviewer/);
    assert.ok(names(second).includes('apply_patch'), 'the next prompt: every tool again');
  });

  it('runs an `ask` prompt in the read-only mode: its edit is declined', async () => {
    ui.slash = port();
    const chat = ui.controller();
    await chat.ask('/change');
    assert.equal(bench.read('notes.txt'), 'notes\n', 'nothing was written');
    const patch = chat.model.all.find((entry) => entry.kind === 'tool' && entry.name === 'apply_patch');
    assert.equal(patch?.kind === 'tool' && patch.status, 'declined');
    assert.equal(ui.mode, 'all', "the chat's mode is as it was");
  });

  it('says an agent that is none, gives the text back and sends nothing', async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('/stranger')).ok, false);
    const notice = chat.model.all.find((entry) => entry.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.text : '', /its agent 'nobody' is no agent here[^]*reviewer/);
    assert.ok(ui.sent.some((m) => m.type === 'focus' && m.text === '/stranger'));
    const sent = requestsOf(await bench.wire()).filter((line) => (line.body as Body | undefined)?.generate !== false);
    assert.equal(sent.length, 0);
  });
});
