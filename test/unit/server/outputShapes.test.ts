import * as assert from 'node:assert/strict';
import { AnyServerEvent } from '../../../src/protocol';
import { parses } from '../protocol/parses';
import { WsClient, finalResponse, useServer } from './support/harness';

// The events of each output item kind, and `max_output_tokens`.

describe('output items: reasoning, several items, max_output_tokens', () => {
  const harness = useServer(() => ({
    scenarios: [
      {
        scenarios: [
          {
            name: 'think',
            match: 'think first',
            steps: [
              {
                output: [
                  { type: 'reasoning', summary: ['Looking at the files.', 'Then editing.'] },
                  { type: 'function_call', name: 'read_file', arguments: { path: 'a.ts' } },
                  { type: 'function_call', name: 'read_file', arguments: { path: 'b.ts' } },
                ],
              },
            ],
          },
          {
            name: 'long',
            match: 'ramble',
            steps: [{ output: [{ type: 'message', text: 'one two three four five six seven eight nine ten' }] }],
          },
        ],
      },
    ],
  }));
  let raw: WsClient;
  beforeEach(async () => (raw = await WsClient.open(harness.url)));
  afterEach(() => raw.close());

  it('reasoning summaries stream as summary parts; each item gets its own output_index; every event parses', async () => {
    const frames = await raw.turn({ model: 'm', store: false, input: 'think first' });
    for (const frame of frames) parses(AnyServerEvent, frame);
    const summary = frames
      .filter((frame) => frame.type === 'response.reasoning_summary_text.done')
      .map((frame) => frame.text);
    assert.deepEqual(summary, ['Looking at the files.', 'Then editing.']);
    const done = frames.filter((frame) => frame.type === 'response.output_item.done');
    assert.deepEqual(
      done.map((frame) => [frame.output_index, (frame.item as { type: string }).type]),
      [
        [0, 'reasoning'],
        [1, 'function_call'],
        [2, 'function_call'],
      ],
    );
    const response = finalResponse(frames);
    assert.equal(response.output.length, 3);
  });

  it('max_output_tokens cuts the answer: response.incomplete with reason max_output_tokens, usage within the cap', async () => {
    const frames = await raw.turn({ model: 'm', store: false, max_output_tokens: 4, input: 'ramble' });
    const last = frames.at(-1);
    assert.equal(last?.type, 'response.incomplete');
    const response = last?.response as {
      status: string;
      incomplete_details: { reason: string };
      usage: { output_tokens: number };
      output: { status: string; content: { text: string }[] }[];
    };
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
    assert.ok(response.usage.output_tokens <= 4);
    assert.equal(response.output[0]?.status, 'incomplete');
    assert.ok(
      (response.output[0]?.content[0]?.text.length ?? 99) < 'one two three four five six seven eight nine ten'.length,
    );
  });
});
