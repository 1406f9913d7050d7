import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import type { HostMessage } from '../../../src/protocol';

// What the chat panel makes of what only real servers send: a progress note (`phase: "commentary"`) shown as
// a note, not as the answer, live and after a reload; a tool the server ran itself as a finished card.

describe('extension: the chat of a real server’s turn', () => {
  const model = () =>
    new ChatModel(
      (_message: HostMessage) => undefined,
      () => Promise.resolve(undefined),
    );

  it('a commentary message is a note; the final answer is not, and each settles its own entry', () => {
    const chat = model();
    const events: AgentEvent[] = [
      { type: 'text_delta', turn: 1, itemId: 'msg_a', delta: 'Looking first.', phase: 'commentary' },
      { type: 'text_delta', turn: 1, itemId: 'msg_b', delta: 'All done.', phase: 'final_answer' },
      { type: 'message', turn: 1, text: 'Looking first.', phase: 'commentary' },
      { type: 'message', turn: 1, text: 'All done.', phase: 'final_answer' },
    ];
    for (const event of events) chat.handle(event);
    const texts = chat.all.flatMap((entry) =>
      entry.kind === 'assistant' ? [[entry.text, entry.note ?? false, entry.streaming]] : [],
    );
    assert.deepEqual(texts, [
      ['Looking first.', true, false],
      ['All done.', false, false],
    ]);
    const saved = transcriptEntries([
      {
        type: 'message',
        role: 'assistant',
        phase: 'commentary',
        content: [{ type: 'output_text', text: 'Looking first.' }],
      },
    ]);
    assert.equal(saved[0]?.kind === 'assistant' && saved[0].note, true, 'a reload shows it as a note too');
  });

  it('a hosted tool’s item is a finished card with what it did', () => {
    const chat = model();
    chat.handle({ type: 'hosted_call', turn: 1, itemType: 'web_search_call', summary: 'search weather in Paris' });
    const card = chat.all.find((entry) => entry.kind === 'tool');
    assert.ok(card?.kind === 'tool');
    assert.equal(card.name, 'web_search_call');
    assert.equal(card.summary, 'search weather in Paris');
    assert.equal(card.status, 'done');
  });
});
