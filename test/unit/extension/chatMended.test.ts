import * as assert from 'node:assert/strict';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// A refused key is mended in place: the chat whose first prompt the endpoint refused (HTTP 401) goes on, in
// the same conversation, once the key is right — by Retry, and by the next prompt — where it used to say
// "The session is closed." until a New Chat.

const scenario: ScenarioFile = {
  scenarios: [{ name: 'hello', match: '.*', steps: [{ output: [{ type: 'message', text: 'Hello there.' }] }] }],
};

describe('chat panel host: a refused key mended in place', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, {}, { tps: 2_000 });
  const ui = useChatBench(bench);

  it('Retry after the key is set runs the refused prompt in the same chat, and the next prompt follows it', async () => {
    const chat = ui.controller();
    ui.apiKey = 'not-the-key';
    const refused = await chat.ask('say hello');
    assert.equal(refused.status, 'failed');
    const sessionId = chat.sessionId;
    assert.ok(sessionId, 'the refused prompt has a conversation');

    ui.apiKey = 'test-token'; // Set API Key…
    await chat.receive({ type: 'retry' });
    await eventually(() => chat.model.all.some((e) => e.kind === 'assistant' && /Hello there/.test(e.text)));
    assert.equal(chat.sessionId, sessionId, 'the same conversation');
    assert.ok(!chat.model.all.some((e) => e.kind === 'notice' && /session is closed/i.test(e.text)));

    const next = await chat.ask('and again');
    assert.equal(next.status, 'completed', next.text);
    assert.equal(chat.sessionId, sessionId);
    const prompts = chat.model.all.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    assert.deepEqual(prompts, ['say hello', 'and again']);
  });

  it('the next prompt after a refusal goes on the same chat, with what was said before', async () => {
    const chat = ui.controller();
    ui.apiKey = 'not-the-key';
    assert.equal((await chat.ask('first try')).status, 'failed');
    ui.apiKey = 'test-token';
    const next = await chat.ask('second try');
    assert.equal(next.status, 'completed', next.text);
    assert.match(next.text, /Hello there/);
    // The transcript holds both prompts: the new socket was sent the conversation, the refused prompt included.
    const said = JSON.stringify(chat.model.all.filter((e) => e.kind === 'user'));
    assert.match(said, /first try/);
    assert.match(said, /second try/);
  });
});
