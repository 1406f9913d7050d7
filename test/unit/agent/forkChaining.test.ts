import * as assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Transcript, forkTranscript } from '../../../src/agent';
import { isUserMessage } from '../../../src/protocol';
import type { ScenarioFile } from '../../../src/server';
import { eventsOf, requestsOf, useAgentBench } from './agentHarness';

// Edit and resend on the wire: a conversation forked at its second prompt chains its first request from the
// response that answered the first prompt — previous_response_id of that response and only the new prompt —
// while the socket still holds it, and sends the whole fork after the socket has rotated.

const answers: ScenarioFile = {
  scenarios: [
    { name: 'edited', match: 'edited', steps: [{ output: [{ type: 'message', text: 'Answer to the edit.' }] }] },
    { name: 'second', match: 'second', steps: [{ output: [{ type: 'message', text: 'Answer two.' }] }] },
    { name: 'first', match: 'first', steps: [{ output: [{ type: 'message', text: 'Answer one.' }] }] },
  ],
};

/** Where the second prompt is in the transcript: the fork keeps what came before it. */
const secondPrompt = (items: readonly unknown[]) =>
  items.findIndex((item, index) => index > 0 && isUserMessage(item as never));

describe('agent: a fork at an earlier message chains from the response before it', () => {
  const bench = useAgentBench(answers, {}, { logBodies: true });

  it('sends previous_response_id of the response before the edited message, and only the new prompt', async () => {
    const { agent, transport, transcript } = await bench.agent();
    await agent.start();
    assert.equal((await agent.run('The first question')).status, 'completed');
    assert.equal((await agent.run('The second question')).status, 'completed');
    const firstAnswer = bench.turns.find((turn) => turn.trace.startsWith('first'))?.responseId;
    assert.ok(firstAnswer, JSON.stringify(bench.turns.map((turn) => turn.trace)));

    const at = secondPrompt(transcript.items);
    const fork = forkTranscript(transcript, at, 'fork', bench.transcriptFile.replace(/\.jsonl$/, '-fork.jsonl'));
    const forked = await bench.agent({ transcript: fork, shared: transport });
    assert.equal((await forked.agent.run('The second question, edited')).status, 'completed');
    assert.equal(transcript.items.length, at + 2, 'the old branch is left whole');

    const creates = requestsOf(await bench.wire());
    const last = creates.at(-1) as { previous_response_id?: string | null; body?: { input?: unknown[] } };
    assert.equal(last.previous_response_id, firstAnswer, 'chained from the answer to the first prompt');
    assert.deepEqual(
      last.body?.input?.map((item) => (item as { role?: string }).role),
      ['user'],
      'only the edited prompt went out',
    );
    assert.equal(eventsOf(bench.events, 'turn_finished').at(-1)?.metrics.chained, true);
  });

  it('after a socket rotation the fork sends its whole context, and is answered the same', async () => {
    const { agent, transport, transcript } = await bench.agent({ rotateAfterMs: 300 });
    await agent.start();
    assert.equal((await agent.run('The first question')).status, 'completed');
    assert.equal((await agent.run('The second question')).status, 'completed');
    const firstAnswer = bench.turns.find((turn) => turn.trace.startsWith('first'))?.responseId;
    await sleep(400);

    const fork = forkTranscript(transcript, secondPrompt(transcript.items), 'fork');
    const kept = fork.items.length;
    const forked = await bench.agent({ transcript: fork, shared: transport });
    assert.equal((await forked.agent.run('The second question, edited')).status, 'completed');
    const text = eventsOf(bench.events, 'message').at(-1)?.text;
    assert.equal(text, 'Answer to the edit.');

    const creates = requestsOf(await bench.wire());
    const last = creates.at(-1) as { previous_response_id?: string | null; body?: { input?: unknown[] } };
    assert.notEqual(last.previous_response_id, firstAnswer, 'the rotated socket does not hold it');
    const metrics = eventsOf(bench.events, 'turn_finished').at(-1)?.metrics;
    assert.equal(metrics?.chained, false);
    // The new socket's warm-up holds the instructions; everything else goes: the first prompt, its answer, the edit.
    assert.equal(metrics?.itemsSent, kept + 1);
    assert.deepEqual(
      last.body?.input?.map((item) => (item as { role?: string }).role).filter((role) => role !== 'developer'),
      ['user', 'assistant', 'user'],
    );
  });

  it('a new conversation on the same lane never chains from another one, however long', async () => {
    const { agent, transport } = await bench.agent();
    await agent.start();
    assert.equal((await agent.run('The first question')).status, 'completed');
    const other = await bench.agent({
      shared: transport,
      transcript: Transcript.create({ id: 'other', createdAt: '', workspace: bench.dir, model: 'gpt-5.5' }),
    });
    for (const prompt of ['The first question', 'The second question'])
      assert.equal((await other.agent.run(prompt)).status, 'completed');
    // The socket's warm-up (turn 0) holds only the instructions: both may chain from it, never from the other's answer.
    const answered = bench.turns[1]?.responseId;
    assert.equal(bench.turns[1]?.trace, 'first#1');
    const creates = requestsOf(await bench.wire());
    assert.ok(
      creates.slice(2).every((line) => line.previous_response_id !== answered),
      'the other conversation chains only from its own responses (or the warm-up)',
    );
  });
});
