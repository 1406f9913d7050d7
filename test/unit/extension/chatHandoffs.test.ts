import * as assert from 'node:assert/strict';
import type { CustomAgent, FrontChoices } from '../../../src/agent';
import type { SlashPort } from '../../../src/extension/chat/composer/chatSlash';
import type { ChooseMessage, ComposerPort } from '../../../src/extension/chat/composer/composerPort';
import type { HostMessage } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// A custom agent's handoffs in the chat panel's host, against the real server: its completed task offers them
// (the page's buttons), a click switches the picker to the target and fills the composer, or sends the prompt;
// the next request goes as the target on the same chain. A task of Loopwire's own offers none. A handoff to
// VS Code's `ask` or `plan` runs its prompt alone read-only or in plan mode, never looser than the user's. A
// reloaded window offers the buttons its chat showed, as the agents found then have them.

const PATCH = '*** Begin Patch\n*** Update File: notes.txt\n@@\n-notes\n+notes, tidied\n*** End Patch\n';

const scenario: ScenarioFile = {
  scenarios: [
    { name: 'plan', match: 'Plan the fix', steps: [{ output: [{ type: 'message', text: '1. Fix it.' }] }] },
    { name: 'slow', match: 'Plan slowly', steps: [{ output: [{ type: 'message', text: 'step '.repeat(4000) }] }] },
    { name: 'go', match: 'Implement the plan', steps: [{ output: [{ type: 'message', text: 'Implemented.' }] }] },
    {
      name: 'tidy',
      match: 'tidy the notes',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Tidied, or planned.' }] },
      ],
    },
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
    // As discovery resolves VS Code's `plan` and `ask` (customAgentHandoffs.test.ts).
    { label: 'Plan it', agent: 'Loopwire', prompt: 'Plan: tidy the notes.', send: true, mode: 'plan' },
    { label: 'Ask', agent: 'Loopwire', prompt: 'Ask: tidy the notes?', mode: 'read-only' },
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
      { label: 'Plan it', agent: 'Loopwire', prompt: 'Plan: tidy the notes.', send: true, mode: 'plan' },
      { label: 'Ask', agent: 'Loopwire', prompt: 'Ask: tidy the notes?', mode: 'read-only' },
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

  /** The mode each declined patch was declined in, as its output tells the model (plan mode's says so). */
  const declines = async () =>
    requestsOf(await bench.wire()).flatMap((line) => {
      const text = JSON.stringify(line.body ?? {});
      if (text.includes('apply_patch call was not run: the session is in plan mode')) return ['plan'];
      return text.includes('The user declined this apply_patch call') ? ['read-only'] : [];
    });
  const patchStatuses = (chat: ReturnType<typeof ui.controller>) =>
    chat.model.all.flatMap((entry) => (entry.kind === 'tool' && entry.name === 'apply_patch' ? [entry.status] : []));

  /** The window's side of `/` as far as handoffs need it: the custom agents found (the picker's). */
  const agentsPort = (found: () => CustomAgent[]): SlashPort => ({
    find: () => Promise.resolve({ prompts: { prompts: [], problems: [] }, skills: [] }),
    root: () => bench.dir,
    review: () => Promise.resolve(false),
    agents: () => Promise.resolve(found()),
  });

  it("a handoff to plan (send): Loopwire's own agent, its prompt in plan mode alone; the next prompt in the user's mode", async () => {
    const chat = ui.controller();
    await chat.ask('Plan the fix');
    await chat.receive({ type: 'handoff', index: 2, label: 'Plan it' });
    assert.deepEqual(picks, ['Loopwire'], "the picker goes to Loopwire's own");
    for (let tries = 0; tries < 200 && patchStatuses(chat).length === 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    while (chat.busy) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(patchStatuses(chat), ['declined'], 'plan mode wrote nothing');
    assert.equal(bench.read('notes.txt'), 'notes\n');
    assert.equal(ui.mode, 'all', "the user's mode is as it was");
    assert.equal((await chat.ask('Now tidy the notes.')).ok, true);
    assert.deepEqual(patchStatuses(chat), ['declined', 'done'], "the next prompt goes in the user's mode");
    assert.deepEqual(await declines(), ['plan']);
  });

  it('a handoff to ask fills the composer; the prompt sent goes read-only, never looser than the user’s plan mode', async () => {
    const chat = ui.controller();
    await chat.ask('Plan the fix');
    await chat.receive({ type: 'handoff', index: 3, label: 'Ask' });
    assert.deepEqual(picks, ['Loopwire']);
    assert.deepEqual(ui.sent.at(-1), { type: 'focus', text: 'Ask: tidy the notes?' });
    assert.equal((await chat.ask('Ask: tidy the notes?')).ok, true);
    assert.deepEqual(patchStatuses(chat), ['declined'], 'read-only wrote nothing');
    // The user in plan mode: an ask handoff's prompt stays in plan, not read-only.
    ui.mode = 'plan';
    front = { agent: PLANNER };
    await chat.ask('Plan the fix');
    await chat.receive({ type: 'handoff', index: 3, label: 'Ask' });
    await chat.ask('Ask: tidy the notes?');
    assert.deepEqual(await declines(), ['read-only', 'plan']);
    assert.equal(bench.read('notes.txt'), 'notes\n');
  });

  it('a reloaded window shows the buttons its chat showed, as the agents found now have them', async () => {
    ui.slash = agentsPort(() => [PLANNER, IMPLEMENTER]);
    const first = ui.controller();
    await first.ask('Plan the fix');
    const shown = offered().at(-1)?.handoffs;
    assert.equal(shown?.length, 4);
    /** The window reloaded: a new controller on the same sessions folder; what its page gets once ready. */
    const reload = async (from: ReturnType<typeof ui.controller>) => {
      from.dispose();
      await from.closed();
      const next = ui.controller();
      const before = ui.sent.length;
      await next.receive({ type: 'ready' });
      const again = ui.sent.slice(before).filter((m) => m.type === 'handoffs');
      return { next, handoffs: again.at(-1)?.type === 'handoffs' ? again.at(-1)?.handoffs : undefined };
    };
    const second = await reload(first);
    assert.deepEqual(second.handoffs, shown, 'the same buttons');
    // A click on one of them works as before the reload.
    await second.next.receive({ type: 'handoff', index: 0, label: 'Start Implementation' });
    assert.deepEqual(picks, ['Implementer']);
    // The buttons went with the click: the next window shows none.
    assert.equal((await reload(second.next)).handoffs, undefined);
  });

  it('a reloaded window leaves out a handoff to an agent gone since, and all of an agent gone', async () => {
    let found: CustomAgent[] = [PLANNER, IMPLEMENTER];
    ui.slash = agentsPort(() => found);
    const first = ui.controller();
    await first.ask('Plan the fix');
    first.dispose();
    await first.closed();
    found = [PLANNER];
    const before = ui.sent.length;
    const second = ui.controller();
    await second.receive({ type: 'ready' });
    const again = ui.sent.slice(before).filter((m) => m.type === 'handoffs');
    const labels = again.at(-1)?.type === 'handoffs' ? again.at(-1)?.handoffs.map((h) => h.label) : [];
    assert.deepEqual(labels, ['Plan it', 'Ask'], 'the Implementer is gone: its handoffs are not shown');
    second.dispose();
    await second.closed();
    found = [IMPLEMENTER];
    const from = ui.sent.length;
    const third = ui.controller();
    await third.receive({ type: 'ready' });
    assert.deepEqual(
      ui.sent.slice(from).filter((m) => m.type === 'handoffs'),
      [],
      'the Planner is gone: none',
    );
  });
});
