import * as assert from 'node:assert/strict';
import { callsIn } from '../../../src/agent/toolRunner';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import { AnyInputItem } from '../../../src/protocol';

// A saved session as the panel shows it when reopened, and the calls the agent finds in a response: both
// read items with the protocol's schemas. Items of types this version does not model show nothing.

const items = [
  { role: 'developer', content: 'the instructions' },
  { type: 'message', role: 'user', content: 'fix the test' },
  {
    type: 'message',
    role: 'user',
    content: [
      { type: 'input_text', text: 'a' },
      { type: 'input_image', image_url: 'data:,' },
      { type: 'input_text', text: 'b' },
    ],
  },
  { role: 'user', content: '' },
  {
    type: 'reasoning',
    summary: [
      { type: 'summary_text', text: 'one' },
      { type: 'summary_text', text: 'two' },
    ],
  },
  { type: 'reasoning', summary: [] },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'Reading it.', annotations: [] },
      { type: 'refusal', refusal: ' Not that.' },
      { type: 'newer_part', text: ' More.' },
    ],
  },
  { type: 'function_call', call_id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' },
  { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch\n' },
  { type: 'function_call', call_id: 'c3', name: 'run_task', arguments: '{"task":"test"}' },
  { type: 'function_call_output', call_id: 'c1', output: 'x'.repeat(9_000) },
  {
    type: 'custom_tool_call_output',
    call_id: 'c2',
    output: [
      { type: 'input_text', text: 'Done.' },
      { type: 'input_image', file_id: 'file_1' },
    ],
  },
  { type: 'function_call_output', call_id: 'unknown', output: 'an answer to no call' },
  { type: 'web_search_call', id: 'ws_1', status: 'completed' },
  { type: 'message', role: 'assistant', content: [] },
].map((item) => AnyInputItem.parse(item));

describe('reading items with the protocol’s schemas', () => {
  it('a saved session shows its prompts, answers, reasoning and one card per call', () => {
    const entries = transcriptEntries(items);
    assert.deepEqual(
      entries.map((entry) => [entry.kind, entry.id]),
      [
        ['user', 'saved:1'],
        ['user', 'saved:2'],
        ['thinking', 'saved:4'],
        ['assistant', 'saved:6'],
        ['tool', 'c1'],
        ['tool', 'c2'],
        ['tool', 'c3'],
      ],
    );
    const texts = entries.map((entry) => ('text' in entry ? entry.text : undefined));
    assert.deepEqual(texts.slice(0, 4), ['fix the test', 'ab', 'one\n\ntwo', 'Reading it. Not that. More.']);
    const cards = entries.flatMap((entry) => (entry.kind === 'tool' ? [entry] : []));
    assert.deepEqual(
      cards.map(({ turn, name, status }) => [turn, name, status]),
      [
        [1, 'read_file', 'done'],
        [1, 'apply_patch', 'done'],
        [1, 'run_task', 'failed'],
      ],
    );
    assert.equal(cards[0]?.output, `${'x'.repeat(8_000)}\n…`);
    assert.equal(cards[1]?.output, 'Done.');
    assert.equal(cards[2]?.output, 'No answer was recorded for this call.');
  });

  it('the calls of a response are its function and custom calls, in order', () => {
    assert.deepEqual(
      callsIn(items).map((call) => [call.type, call.call_id, call.name]),
      [
        ['function_call', 'c1', 'read_file'],
        ['custom_tool_call', 'c2', 'apply_patch'],
        ['function_call', 'c3', 'run_task'],
      ],
    );
  });
});
