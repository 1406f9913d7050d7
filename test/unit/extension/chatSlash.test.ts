import * as assert from 'node:assert/strict';
import { findPromptFiles } from '../../../src/agent';
import type { SlashPort } from '../../../src/extension/chat/composer/chatSlash';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// The composer's slash commands on the chat's host side, against the real server: the `/` menu's list, a
// prompt file's body filled from what follows its name with its model and tools for that prompt only (the
// next prompt goes with the chat's own), `/plan` in plan mode for its prompt, and a command that cannot run
// said and given back to the composer with nothing sent.

const PROMPT_FILE = [
  '---',
  'description: Fix a failing test',
  'argument-hint: the test',
  'model: GPT-5.2 (copilot)',
  'tools: [codebase, runCommands]',
  '---',
  'Fix the test ${input:test} and run it again.',
  '',
].join('\n');

const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-notes\n+notes, fixed\n*** End Patch\n';

const scenario: ScenarioFile = {
  scenarios: [
    { name: 'fix', match: 'Fix the test', steps: [{ output: [{ type: 'message', text: 'Fixed.' }] }] },
    { name: 'next', match: 'and now', steps: [{ output: [{ type: 'message', text: 'Done.' }] }] },
    {
      name: 'plan',
      match: 'tidy the notes',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'The plan: 1. tidy' }] },
      ],
    },
  ],
};

type Body = { model?: string; tools?: { name?: string }[]; input?: unknown[] };

describe('chat panel host: slash commands', function () {
  this.timeout(30_000);
  const bench = useAgentBench(
    scenario,
    { 'notes.txt': 'notes\n', '.github/prompts/fix-test.prompt.md': PROMPT_FILE },
    { tps: 2_000, logBodies: true },
  );
  const ui = useChatBench(bench);
  const reviews: string[] = [];
  const port = (): SlashPort => ({
    find: async () => ({ prompts: await findPromptFiles([bench.dir]), skills: [] }),
    root: () => bench.dir,
    review: (args) => {
      reviews.push(args);
      return Promise.resolve(false);
    },
  });
  const bodies = async () =>
    requestsOf(await bench.wire())
      .map((line) => (line.body ?? {}) as Body & { generate?: boolean })
      .filter((body) => body.generate !== false);

  it('lists the built-ins, then the prompt files, each with its description', async () => {
    ui.slash = port();
    const chat = ui.controller();
    await chat.receive({ type: 'slashCommands' });
    const list = ui.sent.find((m): m is Extract<HostMessage, { type: 'slashCommands' }> => m.type === 'slashCommands');
    const names = list?.commands.map((command) => command.name) ?? [];
    assert.deepEqual(names.slice(0, 6), ['new', 'compact', 'plan', 'review', 'init', 'skills']);
    const file = list?.commands.find((command) => command.name === 'fix-test');
    assert.deepEqual(file, { kind: 'prompt', name: 'fix-test', description: 'Fix a failing test', hint: 'the test' });
  });

  it("sends a prompt file's body filled, with its model and tools for that prompt only", async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('/fix-test cart.test.ts')).ok, true);
    assert.equal((await chat.ask('and now the rest')).ok, true);
    const [first, second] = await bodies();
    assert.ok(JSON.stringify(first?.input).includes('Fix the test cart.test.ts and run it again.'));
    assert.equal(first?.model, 'gpt-5.2', "the prompt file's model, as an id");
    const names = (body: Body | undefined) => (body?.tools ?? []).map((tool) => tool.name).sort();
    assert.deepEqual(
      names(first),
      ['exec_command', 'find_files', 'search_text'],
      "the prompt file's tools, mapped to ours",
    );
    assert.equal(second?.model, 'gpt-5.5', "the next prompt goes with the chat's model");
    assert.ok(names(second).includes('apply_patch'), 'and with every tool');
    const prompts = chat.model.all.flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
    assert.deepEqual(prompts, ['/fix-test cart.test.ts', 'and now the rest'], 'the panel shows what was typed');
  });

  it('runs /plan in plan mode for that prompt alone', async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('/plan tidy the notes')).ok, true);
    assert.equal(bench.read('notes.txt'), 'notes\n', 'plan mode wrote nothing');
    const patch = chat.model.all.find((entry) => entry.kind === 'tool' && entry.name === 'apply_patch');
    assert.equal(patch?.kind === 'tool' && patch.status, 'declined');
    assert.equal(ui.mode, 'all', "the chat's mode is as it was");
  });

  it('says what is missing and gives the text back, sending nothing', async () => {
    ui.slash = port();
    const chat = ui.controller();
    const outcome = await chat.ask('/fix-test');
    assert.equal(outcome.ok, false);
    assert.ok(
      ui.sent.some((m) => m.type === 'focus' && m.text === '/fix-test'),
      'the text is back in the composer',
    );
    const notice = chat.model.all.find((entry) => entry.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.text : '', /needs a value for test/);
    assert.equal((await chat.ask('/nope')).ok, false);
    assert.equal((await bodies()).length, 0, 'nothing was sent');
  });

  it('sends //text as /text', async () => {
    const chat = ui.controller();
    await chat.ask('//Fix the test x');
    const [first] = await bodies();
    assert.ok(JSON.stringify(first?.input).includes('/Fix the test x'));
  });
});
