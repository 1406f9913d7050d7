import * as assert from 'node:assert/strict';
import type { CustomAgent, FrontChoices } from '../../../src/agent';
import type { ChooseMessage, ComposerPort } from '../../../src/extension/chat/composer/composerPort';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// A custom agent's handoffs in the chat panel's host, against the real server: its completed task offers them
// (the page's buttons), a click switches the picker to the target and fills the composer, or sends the prompt;
// the next request goes as the target on the same chain. A task of Loopwire's own offers none.

const scenario: ScenarioFile = {
  scenarios: [
    { name: 'plan', match: 'Plan the fix', steps: [{ output: [{ type: 'message', text: '1. Fix it.' }] }] },
    { name: 'slow', match: 'Plan slowly', steps: [{ output: [{ type: 'message', text: 'step '.repeat(4000) }] }] },
    { name: 'go', match: 'Implement the plan', steps: [{ output: [{ type: 'message', text: 'Implemented.' }] }] },
  ],
};

const agent = (name: string, fields: Partial<CustomAgent>): CustomAgent => ({
  name,
  description: '',
  instructions: `Act as ${name}.`,
  label: `.github/agents/${name}.agent.md`,
  scope: 'workspace',
  ...fields,
});
const IMPLEMENTER = agent('Implementer', { instructions: 'Implement what was planned, step by step.' });
const PLANNER = agent('Planner', {
  handoffs: [
    { label: 'Start Implementation', agent: 'Implementer', prompt: 'Implement the plan above.' },
    { label: 'Implement now', agent: 'Implementer', prompt: 'Implement the plan now.', send: true, model: 'gpt-5.2' },
  ],
});

type Body = { input?: unknown[]; previous_response_id?: string; generate?: boolean; model?: string };

describe("chat panel host: a custom agent's handoffs", function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'notes\n' }, { tps: 2_000, logBodies: true });
  const ui = useChatBench(bench);
  /** The window's agent picker: the pick, and each pick asked for. */
  let picked: CustomAgent | null = null;
  let front: FrontChoices = { agent: null };
  let picks: string[] = [];
  beforeEach(() => {
    picks = [];
    const pick = (name: string) => {
      picks.push(name);
      picked = [PLANNER, IMPLEMENTER].find((each) => each.name === name) ?? null;
      front = { agent: picked };
    };
    pick('Planner');
    picks = [];
    ui.front = () => front;
    const composer: ComposerPort = {
      attach: () => undefined,
      refresh: () => undefined,
      choose: (message: ChooseMessage) => {
        if (message.value !== undefined) pick(message.value);
        return Promise.resolve();
      },
      openInstructions: () => Promise.resolve(),
      allowInstructions: () => Promise.resolve(),
    };
    ui.steering = composer;
  });

  const offered = () => ui.sent.filter((m): m is Extract<HostMessage, { type: 'handoffs' }> => m.type === 'handoffs');
  const generated = async () =>
    requestsOf(await bench.wire())
      .map((line) => (line.body ?? {}) as Body)
      .filter((body) => body.generate !== false);

  it('offers them once its task completed; a click switches the picker and fills the composer; the next request goes as the target on the same chain', async () => {
    const chat = ui.controller();
    assert.equal((await chat.ask('Plan the fix')).ok, true);
    assert.deepEqual(offered().at(-1)?.handoffs, [
      { label: 'Start Implementation', agent: 'Implementer', prompt: 'Implement the plan above.' },
      { label: 'Implement now', agent: 'Implementer', prompt: 'Implement the plan now.', send: true, model: 'gpt-5.2' },
    ]);
    await chat.receive({ type: 'handoff', index: 0, label: 'Start Implementation' });
    assert.deepEqual(picks, ['Implementer']);
    assert.deepEqual(ui.sent.at(-1), { type: 'focus', text: 'Implement the plan above.' });
    assert.deepEqual(offered().at(-1)?.handoffs, [], 'the buttons went');
    // The user sends what the composer holds.
    assert.equal((await chat.ask('Implement the plan above.')).ok, true);
    const all = requestsOf(await bench.wire()).map((line) => (line.body ?? {}) as Body);
    const [first, second] = all.filter((body) => body.generate !== false);
    assert.ok(second?.previous_response_id, 'on the same chain');
    assert.doesNotMatch(JSON.stringify(second?.input), /Plan the fix/, 'the conversation is not sent again');
    assert.match(JSON.stringify(second?.input), /# Custom agent: Implementer/);
    assert.match(JSON.stringify(second?.input), /Implement what was planned, step by step\./);
    // The Planner's section went in the warm-up its first request chained from.
    assert.match(JSON.stringify(all.slice(0, all.indexOf(first as Body))), /# Custom agent: Planner/);
    assert.deepEqual(offered().at(-1)?.handoffs, [], 'the Implementer has none to offer');
  });

  it('sends the prompt at once where it says send, with its model; a stale click does nothing', async () => {
    const chat = ui.controller();
    await chat.ask('Plan the fix');
    await chat.receive({ type: 'handoff', index: 1, label: 'Not the label shown' });
    assert.deepEqual(picks, [], 'a click on a button no longer offered');
    await chat.receive({ type: 'handoff', index: 1, label: 'Implement now' });
    assert.deepEqual(picks, ['Implementer']);
    for (
      let tries = 0;
      tries < 200 && !chat.model.all.some((e) => e.kind === 'assistant' && e.text === 'Implemented.');
      tries++
    )
      await new Promise((resolve) => setTimeout(resolve, 25));
    const users = chat.model.all
      .filter((entry) => entry.kind === 'user')
      .map((entry) => entry.kind === 'user' && entry.text);
    assert.deepEqual(users, ['Plan the fix', 'Implement the plan now.']);
    const [, second] = await generated();
    assert.equal(second?.model, 'gpt-5.2', "the handoff's model");
    assert.ok(second?.previous_response_id);
  });

  it("offers none after a task of Loopwire's own, nor after one stopped", async () => {
    front = { agent: null };
    const chat = ui.controller();
    await chat.ask('Plan the fix');
    assert.deepEqual(offered(), []);
    front = { agent: PLANNER };
    const from = ui.sent.length;
    const stopped = chat.ask('Plan slowly');
    // Stopped once its answer streams.
    while (!ui.sent.slice(from).some((m) => m.type === 'text')) await new Promise((resolve) => setTimeout(resolve, 5));
    chat.stop();
    assert.equal((await stopped).ok, false);
    assert.deepEqual(offered(), []);
  });
});
