import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// What the chat tells the window of its transcript (the `loopwire.hasTranscript` context key, which shows
// Open Transcript) follows the chat shown: a new chat has none, one with a prompt has one, and so does a chat
// reopened from History or restored after a reload. It used to change only as a task started or ended, so
// Open Transcript stayed on after New Chat and off for a chat the window restored.

const scenario: ScenarioFile = {
  scenarios: [{ name: 'any', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] }],
};

describe('chat panel host: Open Transcript follows the chat shown', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.md': 'remember\n' });
  const ui = useChatBench(bench);
  const hasTranscript = () => ui.states.at(-1)?.hasTranscript;

  it('a prompt makes one; New Chat has none; History and a reload bring it back', async () => {
    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    await chat.receive({ type: 'send', text: 'say hello' });
    await eventually(() => chat.model.answerSince(0) === 'Hello.', { message: 'the model answered' });
    await eventually(() => !chat.busy, { message: 'the task ended' });
    const id = chat.sessionId;
    assert.ok(id !== undefined);
    assert.equal(hasTranscript(), true, 'the chat with a prompt');

    chat.newChat();
    assert.equal(hasTranscript(), false, 'New Chat: nothing to open yet');

    await chat.receive({ type: 'openSession', id });
    assert.equal(chat.sessionId, id);
    assert.equal(hasTranscript(), true, 'reopened from History');

    chat.dispose();
    await chat.closed();
    ui.states.length = 0;
    const reloaded = ui.controller();
    await reloaded.receive({ type: 'ready' });
    assert.equal(reloaded.sessionId, id, 'the window restored the chat');
    assert.equal(hasTranscript(), true, 'restored after a reload');
  });
});
