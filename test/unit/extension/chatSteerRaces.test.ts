import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ChatController } from '../../../src/extension/chat/chatController';
import type { QueuedPrompt } from '../../../src/protocol/promptQueue';
import type { ScenarioFile } from '../../../src/server';
import { queueFault, useAgentBench } from '../agent/agentHarness';
import { dropSockets } from '../agent/steeringBench';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// The queue's races on a model that steers natively (gpt-6), through the chat panel's host side, against the
// real server over a real socket (issue 38, item 7): a chip steered into the running response and committed
// there, then the socket lost and the turn resent — the panel shows the steer once, where it took effect;
// and Stop with chips queued and one steered — every word comes back to the composer, in order.

const words = (count: number, word: string) =>
  Array.from({ length: count }, (_, index) => `${word}${index % 10}`).join(' ');

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'plan',
      match: 'plan the trip',
      steps: [
        {
          output: [
            { type: 'message', text: `Route: ${words(40, 'road')}` },
            { type: 'message', text: `Sights: ${words(40, 'sight')}` },
          ],
        },
      ],
    },
    {
      name: 'hotels',
      match: 'only hotels',
      steps: [{ output: [{ type: 'message', text: `Hotels: ${words(40, 'hotel')}` }] }],
    },
    { name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello again.' }] }] },
  ],
};

describe('chat panel host: steering races on a model that steers natively', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, {}, { tps: 400 });
  const ui = useChatBench(bench);

  const chips = (): QueuedPrompt[] => ui.sent.findLast((m) => m.type === 'queue')?.items ?? [];
  const given = () => ui.sent.flatMap((m) => (m.type === 'unqueued' ? m.items.map((item) => item.text) : []));
  /** The conversation as the panel shows it: `user: text`, `steered: text`, `assistant: first word`. */
  const shown = (chat: ChatController) =>
    chat.model.all.flatMap((e) => {
      if (e.kind === 'user') return [`${e.steered ? 'steered' : 'user'}: ${e.text}`];
      if (e.kind === 'assistant') return [`assistant: ${e.text.split(' ')[0] ?? ''}`];
      return [];
    });
  const streaming = (chat: ChatController, start: string) =>
    eventually(() => chat.model.all.some((e) => e.kind === 'assistant' && e.text.startsWith(start)), {
      message: `"${start}…" streams`,
    });
  const steerChip = async (chat: ChatController, text: string) => {
    const chip = await eventually(() => chips().find((item) => item.text === text));
    await chat.receive({ type: 'queue', action: 'steer', id: chip.id });
  };
  const transcriptHolds = (chat: ChatController, text: string) =>
    fs.readFileSync(chat.transcriptFile as string, 'utf8').split(text).length - 1;

  beforeEach(() => (ui.model = 'gpt-6'));

  it('a chip steered natively and committed, then the socket lost: the panel shows it once, after the resent answer', async () => {
    const chat = ui.controller();
    const first = chat.ask('plan the trip');
    await streaming(chat, 'Route');
    const steered = chat.ask('only hotels');
    await steerChip(chat, 'only hotels');
    // The successor answers the steer: it was committed on the socket, which goes now.
    await streaming(chat, 'Hotels');
    await dropSockets(bench);
    const done = await first;
    assert.equal(done.status, 'completed', done.text);
    assert.equal((await steered).status, 'completed');
    assert.deepEqual(shown(chat), [
      'user: plan the trip',
      'assistant: Route:',
      'assistant: Sights:',
      'steered: only hotels',
      'assistant: Hotels:',
    ]);
    assert.equal(transcriptHolds(chat, 'only hotels'), 1, 'the steer is in the transcript once');
    assert.deepEqual(chips(), []);
    assert.deepEqual(given(), []);
  });

  it('Stop with chips queued and one steered (accepted, not yet committed): every word back, in order, none run', async () => {
    const chat = ui.controller();
    const first = chat.ask('plan the trip');
    await streaming(chat, 'Route');
    const queued = [chat.ask('only hotels'), chat.ask('queued after')];
    await steerChip(chat, 'only hotels');
    await chat.receive({ type: 'stop' });
    assert.equal((await first).status, 'cancelled');
    for (const outcome of await Promise.all(queued)) assert.equal(outcome.status, 'cancelled');
    assert.deepEqual(given(), ['only hotels', 'queued after']);
    assert.deepEqual(chips(), []);
    assert.equal(transcriptHolds(chat, 'only hotels'), 0, 'the stopped steer never reached the transcript');
    assert.equal(transcriptHolds(chat, 'queued after'), 0);
  });

  it('a task that fails after the successor took the steer: the steer is not lost, it runs next', async () => {
    const chat = ui.controller();
    const first = chat.ask('plan the trip');
    await streaming(chat, 'Route');
    // The next response — the steered one's successor — fails for good (no retry) a few events in.
    await queueFault(bench, { kind: 'error', code: 'insufficient_quota', after_events: 4 });
    void chat.ask('only hotels');
    await steerChip(chat, 'only hotels');
    assert.equal((await first).status, 'failed');
    // Neither in the transcript of the failed turn nor dropped with its agent: it is the next prompt.
    await eventually(() => transcriptHolds(chat, 'only hotels') === 1 && !chat.busy, {
      message: 'the steer runs as the next prompt',
    });
    assert.ok(shown(chat).includes('user: only hotels'), shown(chat).join(' | '));
  });

  it('Stop once the successor took the steer: the stopped turn is not kept, so its text comes back, and its Steered line and the answer to it go', async () => {
    const chat = ui.controller();
    const first = chat.ask('plan the trip');
    await streaming(chat, 'Route');
    void chat.ask('only hotels');
    void chat.ask('queued after');
    await steerChip(chat, 'only hotels');
    await streaming(chat, 'Hotels');
    await chat.receive({ type: 'stop' });
    assert.equal((await first).status, 'cancelled');
    assert.deepEqual(given(), ['only hotels', 'queued after']);
    assert.equal(transcriptHolds(chat, 'only hotels'), 0);
    // Back in the composer and not in the conversation: the panel does not show it as steered as well (sent
    // again, it would show twice), nor the start of an answer to it. What the task said before it stays.
    const after = shown(chat);
    assert.deepEqual(
      after.filter((line) => line.startsWith('steered:') || line.startsWith('assistant: Hotels')),
      [],
      after.join(' | '),
    );
    assert.deepEqual(after.slice(0, 2), ['user: plan the trip', 'assistant: Route:']);
    const state = ui.sent.findLast((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(
      state.entries.some((e) => e.kind === 'user' && e.steered === true),
      false,
      'the page was sent the conversation without it',
    );
  });
});
