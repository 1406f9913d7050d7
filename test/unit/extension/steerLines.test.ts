import * as assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/agent';
import { ChatModel } from '../../../src/extension/chat/chatModel';
import { NativeSteerLines } from '../../../src/extension/chat/entries/steerLines';
import type { ChatEntry, HostMessage } from '../../../src/protocol/chatView';

// The "Steered" lines after a Stop, as the panel's model keeps them: a steer committed natively in the turn
// that was stopped is not in the transcript (the turn is not kept) and its text goes back to the composer,
// so its line goes, with what the model showed in answer to it; a steer that is in the transcript (at a tool
// boundary, or natively in a turn that finished) stays, and does not come back.

const cancelled: AgentEvent = {
  type: 'done',
  status: 'cancelled',
  reason: 'cancelled by the user',
  code: 'cancelled',
  turns: 2,
  toolCalls: 0,
  wallMs: 5,
};

function model(): { chat: ChatModel; sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  const chat = new ChatModel(
    (message) => sent.push(message),
    () => Promise.resolve(undefined),
  );
  chat.addUser('plan the trip');
  return { chat, sent };
}

const shown = (entries: readonly ChatEntry[]) =>
  entries.map((entry) => {
    if (entry.kind === 'user') return `${entry.steered ? 'steered' : 'user'}: ${entry.text}`;
    if (entry.kind === 'assistant') return `assistant: ${entry.text}`;
    return entry.kind === 'notice' ? `notice: ${entry.text}` : entry.kind;
  });

describe('chat panel host: a steer’s line after Stop', () => {
  it('committed natively in the stopped turn: its line and the answer to it go, the answer before it stays', () => {
    const { chat, sent } = model();
    chat.handle({ type: 'text_delta', turn: 1, itemId: 'a', delta: 'Route: road0' });
    chat.handle({ type: 'steered', turn: 1, text: 'only hotels', how: 'native' });
    chat.handle({ type: 'text_delta', turn: 1, itemId: 'b', delta: 'Hotels: hotel0' });
    sent.length = 0;
    chat.handle(cancelled);
    assert.deepEqual(shown(chat.all), ['user: plan the trip', 'assistant: Route: road0', 'notice: Stopped.']);
    assert.equal(
      sent.some(
        (message) => message.type === 'entry' && message.entry.kind === 'assistant' && message.entry.id === 'text:b',
      ),
      false,
      'the withdrawn answer is not sent again first',
    );
  });

  it('delivered at a tool boundary: it is in the transcript, so its line stays', () => {
    const { chat } = model();
    chat.handle({ type: 'text_delta', turn: 1, itemId: 'a', delta: 'Route: road0' });
    chat.handle({ type: 'steered', turn: 1, text: 'only hotels', how: 'boundary' });
    chat.handle({ type: 'text_delta', turn: 2, itemId: 'b', delta: 'Hotels: hotel0' });
    chat.handle(cancelled);
    assert.deepEqual(shown(chat.all), [
      'user: plan the trip',
      'assistant: Route: road0',
      'steered: only hotels',
      'assistant: Hotels: hotel0',
      'notice: Stopped.',
    ]);
  });

  it('a task that fails is not a Stop: nothing is withdrawn', () => {
    const { chat } = model();
    chat.handle({ type: 'steered', turn: 1, text: 'only hotels', how: 'native' });
    chat.handle({ ...cancelled, status: 'failed', code: 'internal', reason: 'an internal error: x' });
    assert.ok(shown(chat.all).includes('steered: only hotels'));
  });

  it('committed natively in a turn that finished (kept in the transcript): a later Stop leaves it', () => {
    const lines = new NativeSteerLines();
    const entries: ChatEntry[] = [
      { kind: 'user', id: 'user:1', text: 'plan the trip' },
      { kind: 'user', id: 'user:2', text: 'only hotels', steered: true },
      { kind: 'assistant', id: 'text:1', text: 'Hotels: hotel0', streaming: false },
    ];
    lines.committed('user:2', 1);
    lines.turnFinished();
    assert.deepEqual([...lines.withdrawn(entries)], []);
    lines.committed('user:2', 1);
    assert.deepEqual([...lines.withdrawn(entries)], ['user:2', 'text:1']);
    assert.deepEqual([...lines.withdrawn(entries)], [], 'once');
  });
});
