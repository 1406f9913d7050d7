import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { AnyServerEvent } from '../../../src/protocol';
import { openReasoning, sealReasoning } from '../../../src/server/reasoningSeal';
import { parses } from '../protocol/parses';
import { SdkSocket } from './support/sdkSocket';
import { type WireEvent, finalResponse, post } from './support/harness';
import {
  type ApiError,
  type Item,
  THINK,
  flipMiddle,
  sealed,
  tampered,
  user,
  useStrictServer,
} from './support/strictFixtures';

// Reasoning items as the API treats them: their summaries stream, the finished item carries an
// encrypted_content that this server sealed, and a replay is accepted only as issued.

/** A reasoning item as the server sent it: its id, summary texts and encrypted_content. */
interface ReasoningOut {
  type: 'reasoning';
  id: string;
  summary: { type: string; text: string }[];
  encrypted_content: string;
  status: string;
}

describe('strict backend: reasoning items and their encrypted_content', () => {
  const { harness, openWs, responses } = useStrictServer(() => [THINK]);

  it('sealing is deterministic, bound to the id and summary, and opens only unaltered', () => {
    assert.equal(sealReasoning('rs_a', ['one', 'two']), sealReasoning('rs_a', ['one', 'two']));
    assert.notEqual(sealReasoning('rs_a', ['one']), sealReasoning('rs_b', ['one']));
    assert.notEqual(sealReasoning('rs_a', ['one']), sealReasoning('rs_a', ['one', '']));
    assert.match(sealed, /^lw1\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(openReasoning(sealed), { id: 'rs_issued', summary: ['Look at the file.'] });
    for (const bad of [
      tampered,
      sealed.slice(0, -1),
      `${sealed}A`,
      sealed.replace(/^lw1\./, 'lw2.'),
      `${sealed.slice(0, 10)}=${sealed.slice(11)}`,
      'lw1.',
      '',
      'gAAAAABo9x==',
    ])
      assert.equal(openReasoning(bad), undefined, bad);
  });

  it('a reasoning item streams its summary parts; encrypted_content is on the finished item only', async () => {
    const client = await openWs();
    const frames = await client.turn({ model: 'm', store: false, input: 'think first' });
    for (const frame of frames) parses(AnyServerEvent, frame);
    // The reasoning item's events, runs of deltas counted once.
    const ofReasoning = frames
      .filter((frame) => frame.output_index === 0)
      .map((frame) => frame.type)
      .filter((type, index, all) => type !== 'response.reasoning_summary_text.delta' || all[index - 1] !== type);
    const part = [
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
    ];
    assert.deepEqual(ofReasoning, ['response.output_item.added', ...part, ...part, 'response.output_item.done']);
    const added = frames.find((frame) => frame.type === 'response.output_item.added')?.item as Item;
    assert.equal(added.encrypted_content, undefined, 'not on output_item.added');
    const done = frames.find((frame) => frame.type === 'response.output_item.done')?.item as ReasoningOut;
    const final = finalResponse(frames).output[0] as ReasoningOut;
    assert.deepEqual(final, done);
    assert.equal(done.status, 'completed');
    assert.equal(done.encrypted_content, sealReasoning(done.id, ['Look at the file.', 'Then run it.']));
  });

  it('populated with or without include, over HTTP too (as the SDK says the API does)', async () => {
    for (const extra of [{}, { include: ['reasoning.encrypted_content'] }, { store: true }]) {
      const reply = await post(responses(), { model: 'm', store: false, input: 'think first', ...extra });
      assert.equal(reply.status, 200, reply.text);
      const item = (JSON.parse(reply.text) as { output: ReasoningOut[] }).output[0];
      assert.ok(item);
      assert.equal(item.encrypted_content, sealReasoning(item.id, ['Look at the file.', 'Then run it.']));
    }
  });

  it('replayed as issued: accepted on an HTTP full resend and on a new socket; tampered: refused', async () => {
    const first = JSON.parse(
      (
        await post(responses(), {
          model: 'm',
          store: false,
          include: ['reasoning.encrypted_content'],
          input: 'think first',
        })
      ).text,
    ) as { output: Item[] };
    const [reasoning, call] = first.output as [ReasoningOut, { call_id: string }];
    const history = (items: Item[]) => [
      user('think first'),
      ...items,
      { type: 'function_call_output', call_id: call.call_id, output: 'a.ts\n' },
    ];
    const again = await post(responses(), { model: 'm', store: false, input: history(first.output) });
    assert.equal(again.status, 200, again.text);
    assert.equal(
      (JSON.parse(again.text) as { output: { content: { text: string }[] }[] }).output[0]?.content[0]?.text,
      'Done thinking.',
    );
    // A client that strips the summary but keeps the id and content is fine: the content is what counts.
    const stripped = { ...reasoning, summary: [] };
    assert.equal((await post(responses(), { model: 'm', store: false, input: history([stripped, call]) })).status, 200);
    const client = await openWs();
    assert.equal(
      finalResponse(await client.turn({ model: 'm', store: false, input: history(first.output) })).status,
      'completed',
    );
    const forged = { ...reasoning, encrypted_content: flipMiddle(reasoning.encrypted_content) };
    const refused = await client.turn({ model: 'm', store: false, input: history([forged, call]) });
    assert.equal((refused[0] as WireEvent & { error: ApiError }).error.code, 'invalid_encrypted_content');
    assert.equal(
      finalResponse(await client.turn({ model: 'm', store: false, input: history(first.output) })).status,
      'completed',
    );
  });

  it('the official SDK replays reasoning over HTTP and ResponsesWS, and gets BadRequestError for an orphan output', async () => {
    const sdk = new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });
    const first = await sdk.responses.create({
      model: 'm',
      store: false,
      include: ['reasoning.encrypted_content'],
      input: 'think first',
    });
    const reasoning = first.output[0];
    const call = first.output[1];
    assert.ok(reasoning?.type === 'reasoning' && call?.type === 'function_call');
    assert.equal(reasoning.encrypted_content, sealReasoning(reasoning.id, ['Look at the file.', 'Then run it.']));
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'think first' },
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { type: 'function_call_output', call_id: call.call_id, output: 'a.ts\n' },
    ];
    assert.equal((await sdk.responses.create({ model: 'm', store: false, input })).output_text, 'Done thinking.');
    const socket = new SdkSocket(harness.url);
    try {
      assert.equal((await socket.turn({ model: 'm', store: false, input })).status, 'completed');
      await assert.rejects(
        socket.turn({
          model: 'm',
          store: false,
          input: [
            { role: 'user', content: 'think first' },
            { type: 'function_call_output', call_id: 'call_x', output: '' },
          ],
        }),
        (error: Error) => {
          assert.match(error.message, /No tool call found for function call output with call_id call_x\./);
          return true;
        },
      );
      assert.equal((await socket.turn({ model: 'm', store: false, input })).status, 'completed', 'still usable');
    } finally {
      socket.close();
    }
    await assert.rejects(
      sdk.responses.create({
        model: 'm',
        input: [
          { role: 'user', content: 'think first' },
          { type: 'function_call_output', call_id: 'call_x', output: '' },
        ],
      }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.BadRequestError);
        assert.equal(error.status, 400);
        assert.equal(error.param, 'input');
        assert.equal(error.message, '400 No tool call found for function call output with call_id call_x.');
        return true;
      },
    );
  });
});
