import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import type { ChatEntry, HostMessage, Remedy } from '../../../src/protocol/chatView';
import type { ScenarioFile } from '../../../src/server';
import { useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// A task's stop in the panel is said once: one line in the conversation with the button that fixes its cause
// (Set API Key…, Select Endpoint…, Show Log), a banner that says no more than the line (it holds Retry), and
// no advice meant for `loopwire exec`. The button asks the host for a remedy by name, never a command id.

type Notice = Extract<ChatEntry, { kind: 'notice' }>;
const notices = (entries: readonly ChatEntry[]) => entries.filter((entry): entry is Notice => entry.kind === 'notice');

/** What the agent emits when a task stops on a fault (agentLoop.ts): the `error`, then the `done`. */
const stopEvents = (code: string, message: string): AgentEvent[] => [
  { type: 'error', code, message },
  { type: 'done', status: 'failed', reason: message, code, turns: 1, toolCalls: 0, wallMs: 5 },
];

describe('chat panel host: a stop is one line with its remedy', () => {
  const model = () => {
    const sent: HostMessage[] = [];
    const chat = new ChatModel(
      (message) => sent.push(message),
      () => Promise.resolve(undefined),
    );
    return { chat, sent };
  };

  const table: Array<[string, Remedy]> = [
    ['auth', 'setApiKey'],
    ['unreachable', 'selectEndpoint'],
    ['websocket_unsupported', 'selectEndpoint'],
    ['model_not_found', 'selectEndpoint'],
    ['invalid_prompt', 'showLog'],
    ['retries_exhausted', 'showLog'],
    ['internal', 'showLog'],
  ];
  for (const [code, remedy] of table)
    it(`${code}: one error line offering ${remedy}, and a banner that adds nothing`, () => {
      const { chat, sent } = model();
      const reason = `The fault of ${code}.`;
      for (const event of stopEvents(code, reason)) chat.handle(event);
      assert.deepEqual(
        notices(chat.all).map(({ level, text, remedy }) => ({ level, text, remedy })),
        [{ level: 'error', text: reason, remedy }],
      );
      assert.equal(sent.filter((message) => message.type === 'entry').length, 1, 'the page is sent the line once');
      assert.deepEqual(chat.banner, { kind: 'failed', text: 'The task stopped.', retry: true });
    });

  it('a stop in lower case (the turn limit) is made a sentence; a cancel is “Stopped.” with no remedy', () => {
    const { chat } = model();
    chat.handle({
      type: 'done',
      status: 'stopped',
      reason: 'the turn limit (50) was reached',
      code: 'max_turns',
      turns: 50,
      toolCalls: 49,
      wallMs: 5,
    });
    // A limit of the agent's own: the banner offers Continue (the page's label for kind limit), not Retry.
    assert.deepEqual(chat.banner, { kind: 'limit', text: 'The task stopped at its limit.', retry: true });
    chat.handle({
      type: 'done',
      status: 'cancelled',
      reason: 'cancelled by the user',
      turns: 0,
      toolCalls: 0,
      wallMs: 1,
    });
    assert.deepEqual(
      notices(chat.all).map(({ level, text, remedy }) => ({ level, text, remedy })),
      [
        { level: 'error', text: 'The task stopped: the turn limit (50) was reached.', remedy: 'showLog' },
        { level: 'info', text: 'Stopped.', remedy: undefined },
      ],
    );
  });
});

describe('chat panel host: a refused key, against the real server', function () {
  this.timeout(20_000);
  const SAY_HELLO: ScenarioFile = {
    scenarios: [{ name: 'hello', match: 'say hello', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] }],
  };
  // The server wants another token than the one the chat's agents send: every request is answered 401.
  const bench = useAgentBench(SAY_HELLO, {}, { token: 'not-the-chat-key' });
  const ui = useChatBench(bench);

  it('says the 401 once, with Set API Key…, and the button runs that remedy alone', async () => {
    const chat = ui.controller();
    const outcome = await chat.ask('Please say hello.');
    assert.equal(outcome.status, 'failed');
    const errors = notices(chat.model.all).filter((entry) => entry.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(chat.model.all));
    const [line] = errors;
    assert.ok(line);
    assert.equal(line.remedy, 'setApiKey');
    assert.match(line.text, /^The endpoint refused the credentials: .*401/);
    assert.doesNotMatch(line.text, /OPENAI_API_KEY|loopwire exec|--[a-z]/, 'no advice meant for the terminal');
    const saying = chat.model.all.filter((entry) => 'text' in entry && entry.text.includes('refused the credentials'));
    assert.equal(saying.length, 1, 'the sentence is in the conversation once');
    assert.deepEqual(chat.model.banner, { kind: 'failed', text: 'The task stopped.', retry: true });

    await chat.receive({ type: 'remedy', remedy: line.remedy });
    assert.deepEqual(ui.remedies, ['setApiKey']);
    // A command id from the page is no remedy: dropped, and logged.
    await chat.receive({ type: 'remedy', remedy: 'workbench.action.terminal.new' });
    assert.deepEqual(ui.remedies, ['setApiKey']);
    assert.ok(
      ui.logged.some((logged) => logged.includes('ignored a malformed message')),
      ui.logged.join('\n'),
    );
  });
});
