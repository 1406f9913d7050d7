import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { CompactedResponse, Compaction, HttpErrorBody } from '../../../src/protocol';
import { parses } from '../protocol/parses';
import { post, useServer } from './support/harness';
import { LONG_PROMPT, LONG_STEPS, LONG_TASK, WINDOW, fileText } from './support/longTask';

// `POST /v1/responses/compact` (docs/backend.md, "Compaction"), through the SDK's `client.responses.compact`:
// a context in, its user messages and one compaction item out, with usage; the same refusals as a response.

type InputItem = OpenAI.Responses.ResponseInputItem;

describe('POST /v1/responses/compact', () => {
  const harness = useServer({ scenarios: [LONG_TASK], contextWindow: WINDOW });
  const client = () => new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });

  /** The task's history after `reads` file reads, played over HTTP without compaction. */
  async function history(reads: number, store = false): Promise<{ items: InputItem[]; lastId: string }> {
    const items: InputItem[] = [{ role: 'user', content: LONG_PROMPT }];
    let lastId = '';
    for (let n = 1; n <= reads; n++) {
      const response = await client().responses.create({ model: 'gpt-5.5', store, input: items });
      lastId = response.id;
      const call = response.output[0];
      assert.ok(call?.type === 'function_call');
      items.push(call, { type: 'function_call_output', call_id: call.call_id, output: fileText(n) });
    }
    return { items, lastId };
  }

  it('client.responses.compact: the user messages, then one compaction item, with usage; our schema parses it', async () => {
    const { items } = await history(3);
    const compacted = await client().responses.compact({
      model: 'gpt-5.5',
      input: [...items.slice(0, 1), { role: 'user', content: 'and be quick' }, ...items.slice(1)],
    });
    const parsed = parses(CompactedResponse, compacted);
    assert.equal(parsed.object, 'response.compaction');
    assert.match(parsed.id, /^resp_[0-9a-f]{24}$/);
    assert.deepEqual(parsed.output.slice(0, -1), [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG_PROMPT }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and be quick' }] },
    ]);
    const item = parses(Compaction, parsed.output.at(-1));
    assert.match(item.id ?? '', /^cmp_/);
    const record = harness.turns.at(-1);
    assert.equal(record?.outcome, 'compacted');
    assert.equal(parsed.usage.input_tokens, record.inputTokens);
    assert.ok(parsed.usage.input_tokens > 3 * 600, 'the whole context was read');
    assert.equal(parsed.usage.output_tokens, record.compaction?.summaryTokens);
    assert.ok(parsed.usage.output_tokens < parsed.usage.input_tokens / 5, 'and written far shorter');
    assert.equal(parsed.usage.total_tokens, parsed.usage.input_tokens + parsed.usage.output_tokens);
  });

  it('its output, sent as the next input, goes on at the right step and costs what the compacted context costs', async () => {
    const { items } = await history(4);
    const compacted = await client().responses.compact({ model: 'gpt-5.5', input: items });
    const next = await client().responses.create({
      model: 'gpt-5.5',
      input: compacted.output as InputItem[],
    });
    assert.equal(harness.turns.at(-1)?.trace, 'long task#5');
    assert.equal(next.output[0]?.type, 'function_call');
    const usage = next.usage;
    assert.ok(usage && usage.input_tokens < 400, `${usage?.input_tokens} input tokens`);
    assert.equal(usage.input_tokens_details.cached_tokens, usage.input_tokens, 'the compacted context was cached');
  });

  it('previous_response_id: the stored chain, then input; the task plays to its end through repeated compaction', async () => {
    const { lastId } = await history(1, true);
    const compacted = await client().responses.compact({ model: 'gpt-5.5', previous_response_id: lastId });
    assert.equal(compacted.output.length, 2);
    // Compact every second turn, each time carrying on from the compacted output.
    let input: InputItem[] = compacted.output as InputItem[];
    for (let n = 2; n <= LONG_STEPS; n++) {
      const response = await client().responses.create({ model: 'gpt-5.5', store: false, input });
      assert.equal(harness.turns.at(-1)?.trace, `long task#${n}`);
      const call = response.output[0];
      if (call?.type !== 'function_call') {
        assert.equal(n, LONG_STEPS);
        assert.equal(response.output_text, 'Read every file.');
        return;
      }
      input = [...input, call, { type: 'function_call_output', call_id: call.call_id, output: fileText(n) }];
      if (n % 2 === 0) input = (await client().responses.compact({ model: 'gpt-5.5', input })).output as InputItem[];
      assert.ok(input.length <= 4);
    }
    assert.fail('the task did not end');
  });

  it('refuses what a response refuses: no model, nothing to compact, an unknown id, forged content, over the window', async () => {
    const url = `${harness.url}/responses/compact`;
    const refusal = async (body: unknown) => {
      const answer = await post(url, body);
      assert.equal(answer.status, 400, answer.text);
      return parses(HttpErrorBody, JSON.parse(answer.text)).error;
    };
    assert.equal((await refusal({ input: 'x' })).code, 'missing_required_parameter');
    assert.equal((await refusal({ model: 'm' })).param, 'input');
    assert.equal((await refusal({ model: 'm', input: [] })).code, 'empty_array');
    assert.equal(
      (await refusal({ model: 'm', previous_response_id: 'resp_nope' })).code,
      'previous_response_not_found',
    );
    const forged = [
      { role: 'user', content: 'x' },
      { type: 'compaction', encrypted_content: 'lwc1.AAAA' },
    ];
    assert.equal((await refusal({ model: 'm', input: forged })).code, 'invalid_encrypted_content');
    const huge = [1, 2, 3, 4, 5].map((n) => fileText(n)).join('\n');
    assert.deepEqual(await refusal({ model: 'm', input: huge }), {
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      param: 'input',
    });
    const get = await fetch(url);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
  });

  it('user messages alone still get a compaction item (with nothing to summarize)', async () => {
    const compacted = await client().responses.compact({ model: 'gpt-5.5', input: 'just a question' });
    assert.equal(compacted.output.length, 2);
    assert.equal(compacted.output[1]?.type, 'compaction');
    const next = await client().responses.create({ model: 'gpt-5.5', input: compacted.output as InputItem[] });
    assert.match(next.output_text, /no scenario matches/, 'the prompt survived: it is still the latest user message');
  });
});
