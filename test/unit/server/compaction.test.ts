import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import {
  Compaction,
  HttpErrorBody,
  OutputItemAddedEvent,
  OutputItemDoneEvent,
  WsErrorEvent,
} from '../../../src/protocol';
import { SUMMARY_RATIO } from '../../../src/server/compaction';
import { openCompaction, sealCompaction } from '../../../src/server/compactionSeal';
import { locateStep } from '../../../src/server/contextSteps';
import { sealReasoning } from '../../../src/server/reasoningSeal';
import { parses } from '../protocol/parses';
import { WsClient, type WireEvent, finalResponse, post, useServer } from './support/harness';
import { COMPACT, LONG_PROMPT, LONG_TASK, WINDOW, fileText } from './support/longTask';

// Server-side compaction (docs/backend.md, "Compaction"): past `compact_threshold` the output begins with a
// `compaction` item, the socket's cache holds the compacted context, and a replayed compaction item is checked
// like encrypted reasoning.

type Item = Record<string, unknown>;

/** Plays the long task over a raw socket until a response begins with a compaction; returns every turn's frames. */
async function untilCompaction(socket: WsClient, fields: Item): Promise<WireEvent[][]> {
  const turns = [await socket.turn({ ...fields, input: LONG_PROMPT })];
  for (let n = 1; n < 9; n++) {
    const last = finalResponse(turns.at(-1) as WireEvent[]);
    if ((last.output[0] as Item).type === 'compaction') return turns;
    const call = last.output.find((item) => (item as Item).type === 'function_call') as Item;
    const output = { type: 'function_call_output', call_id: call.call_id, output: fileText(n) };
    turns.push(await socket.turn({ ...fields, previous_response_id: last.id, input: [output] }));
  }
  throw new Error('never compacted');
}

describe('compaction in response.create', () => {
  const harness = useServer({ scenarios: [LONG_TASK], contextWindow: WINDOW });
  const fields = { model: 'gpt-5.5', store: false, context_management: COMPACT };
  let socket: WsClient;
  beforeEach(async () => (socket = await WsClient.open(harness.url)));
  afterEach(() => socket.close());

  it('below the threshold nothing is compacted; past it the output begins with a compaction item', async () => {
    const turns = await untilCompaction(socket, fields);
    const records = harness.turns;
    for (const [index, frames] of turns.entries()) {
      const response = finalResponse(frames);
      const compacted = (response.output[0] as Item).type === 'compaction';
      assert.equal(compacted, index === turns.length - 1);
      assert.equal(compacted, (records[index]?.inputTokens ?? 0) > 2000, 'exactly when past compact_threshold');
    }
    const frames = turns.at(-1) as WireEvent[];
    const response = finalResponse(frames);
    const item = parses(Compaction, response.output[0]);
    assert.match(item.id ?? '', /^cmp_[0-9a-f]{24}$/);
    assert.match(item.encrypted_content, /^lwc1\.[A-Za-z0-9_-]+$/);
    assert.equal((response.output[1] as Item).type, 'function_call', 'then the usual output');
    // Streamed as the API streams one: added, then done, no deltas, at output_index 0.
    const ofItem = frames.filter(
      (frame) => frame.item_id === item.id || (frame.item as Item | undefined)?.id === item.id,
    );
    assert.deepEqual(
      ofItem.map((frame) => frame.type),
      ['response.output_item.added', 'response.output_item.done'],
    );
    assert.deepEqual(parses(OutputItemDoneEvent, ofItem[1]).item, item);
    assert.equal(parses(OutputItemAddedEvent, ofItem[0]).output_index, 0);
    // Honest: the digest is a fixed fraction of what it replaced, and its writing is output.
    const figures = records.at(-1)?.compaction;
    assert.ok(figures);
    const ratio = figures.summaryTokens / figures.replacedTokens;
    assert.ok(ratio > SUMMARY_RATIO / 2 && ratio < SUMMARY_RATIO * 1.5, `summary ratio ${ratio}`);
    const usage = response.usage as { output_tokens: number };
    assert.ok(usage.output_tokens >= figures.summaryTokens);
  });

  it('the socket then holds the compacted context: the next chained turn reads and costs less', async () => {
    const turns = await untilCompaction(socket, fields);
    const compacting = finalResponse(turns.at(-1) as WireEvent[]);
    const call = compacting.output[1] as Item;
    const next = finalResponse(
      await socket.turn({
        ...fields,
        previous_response_id: compacting.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: fileText(9) }],
      }),
    );
    const [before, after] = harness.turns.slice(-2);
    assert.ok(before && after);
    assert.equal(after.chainedFrom, 'connection');
    assert.ok(after.inputTokens < before.inputTokens, `${after.inputTokens} after, ${before.inputTokens} before`);
    assert.ok(after.inputTokens < before.contextTokens + 800, 'the compacted context plus one file');
    assert.equal((next.usage as { input_tokens: number }).input_tokens, after.inputTokens);
  });

  it('compacting the same context twice gives the very same item (deterministic, opaque)', async () => {
    const first = finalResponse((await untilCompaction(socket, fields)).at(-1) as WireEvent[]);
    const other = await WsClient.open(harness.url);
    try {
      const second = finalResponse((await untilCompaction(other, fields)).at(-1) as WireEvent[]);
      assert.deepEqual(second.output[0], first.output[0]);
    } finally {
      other.close();
    }
    const item = first.output[0] as { id: string; encrypted_content: string };
    assert.ok(!item.encrypted_content.includes('part1'), 'nothing readable in the content');
    assert.equal(openCompaction(item.encrypted_content)?.id, item.id);
    assert.equal(openCompaction(item.encrypted_content)?.responses, 3, 'three reads folded in');
  });

  it('without compact_threshold it compacts past 80% of the window; other types are refused', async () => {
    const turns = await untilCompaction(socket, { ...fields, context_management: [{ type: 'compaction' }] });
    assert.ok((harness.turns.at(-1)?.inputTokens ?? 0) > WINDOW * 0.8);
    assert.ok((harness.turns.at(-2)?.inputTokens ?? Infinity) <= WINDOW * 0.8);
    assert.ok(turns.length > 1);
    const refused = await socket.turn({ ...fields, input: LONG_PROMPT, context_management: [{ type: 'truncate' }] });
    assert.deepEqual(parses(WsErrorEvent, refused[0]).error, {
      type: 'invalid_request_error',
      code: 'invalid_value',
      message: "Invalid value: 'truncate'. Supported values are: 'compaction'.",
      param: 'context_management[0].type',
    });
    const zero = await socket.turn({
      ...fields,
      input: LONG_PROMPT,
      context_management: [{ type: 'compaction', compact_threshold: 0 }],
    });
    assert.equal(parses(WsErrorEvent, zero[0]).error.param, 'context_management[0].compact_threshold');
    const fraction = await socket.turn({
      ...fields,
      input: LONG_PROMPT,
      context_management: [{ type: 'compaction', compact_threshold: 0.8 }],
    });
    assert.match(parses(WsErrorEvent, fraction[0]).error.message, /expected an integer, but got a decimal/);
    assert.equal(finalResponse(await socket.turn({ ...fields, input: LONG_PROMPT })).status, 'completed');
  });
});

describe('a replayed compaction item', () => {
  const harness = useServer({ scenarios: [LONG_TASK], contextWindow: WINDOW });
  const client = () => new OpenAI({ apiKey: 'sk-local', baseURL: harness.url, maxRetries: 0 });

  it('issued by this server: accepted, and it stands for what it replaced (the scenario goes on from there)', async () => {
    const socket = await WsClient.open(harness.url);
    let item: Item;
    try {
      const turns = await untilCompaction(socket, { model: 'm', store: false, context_management: COMPACT });
      item = finalResponse(turns.at(-1) as WireEvent[]).output[0] as Item;
    } finally {
      socket.close();
    }
    // Three reads were folded in, so the model is at step 4 whatever came before the item, even nothing.
    for (const input of [[{ role: 'user' as const, content: LONG_PROMPT }, item], [item]]) {
      const response = await client().responses.create({ model: 'm', input: input as never });
      assert.equal(harness.turns.at(-1)?.trace, 'long task#4');
      assert.equal(response.output[0]?.type, 'function_call');
    }
  });

  it('made up, altered, of another kind or under another id: invalid_encrypted_content, over both transports', async () => {
    const issued = sealCompaction({ id: 'cmp_issued', prompt: LONG_PROMPT, responses: 2, digest: 'read two files' });
    const cases: [Item, string][] = [
      [{ type: 'compaction', id: 'cmp_x', encrypted_content: 'gAAAAABmade-up' }, 'could not be decrypted or parsed'],
      [
        { type: 'compaction', id: 'cmp_issued', encrypted_content: `${issued.slice(0, -6)}AAAAAA` },
        'could not be decrypted',
      ],
      [{ type: 'compaction', encrypted_content: sealReasoning('cmp_issued', ['no']) }, 'could not be decrypted'],
      [{ type: 'compaction', id: 'cmp_other', encrypted_content: issued }, 'item_id did not match the target item id'],
    ];
    const socket = await WsClient.open(harness.url);
    try {
      for (const [item, reason] of cases) {
        const input = [{ role: 'user', content: LONG_PROMPT }, item];
        const http = await post(`${harness.url}/responses`, { model: 'm', input });
        assert.equal(http.status, 400);
        const error = parses(HttpErrorBody, JSON.parse(http.text)).error;
        assert.equal(error.code, 'invalid_encrypted_content');
        assert.equal(error.type, 'invalid_request_error');
        assert.ok(error.message.includes(reason), error.message);
        const frames = await socket.turn({ model: 'm', store: false, input });
        assert.deepEqual(parses(WsErrorEvent, frames[0]).error, error);
      }
      const ok = await socket.turn({
        model: 'm',
        store: false,
        input: [{ type: 'compaction', encrypted_content: issued }],
      });
      assert.equal(finalResponse(ok).status, 'completed', 'the socket serves on; the issued content is accepted');
      assert.equal(harness.turns.at(-1)?.trace, 'long task#3');
    } finally {
      socket.close();
    }
  });

  it('locateStep reads the step position a compaction carries', () => {
    const sealed = (responses: number, prompt: string | null) => ({
      type: 'compaction' as const,
      encrypted_content: sealCompaction({ id: 'cmp_1', prompt, responses, digest: '' }),
    });
    const call = { type: 'function_call' as const, call_id: 'c', name: 'read_file', arguments: '{}' };
    const output = { type: 'function_call_output' as const, call_id: 'c', output: 'x' };
    const user = { role: 'user' as const, content: 'task' };
    assert.deepEqual(locateStep([user, sealed(3, 'task')]), { prompt: 'task', step: 4 });
    assert.deepEqual(locateStep([sealed(3, 'task'), call, output]), { prompt: 'task', step: 5 });
    assert.deepEqual(locateStep([user, sealed(0, null), call]), { prompt: 'task', step: 2 });
    assert.deepEqual(locateStep([sealed(3, 'old'), { role: 'user', content: 'new' }]), { prompt: 'new', step: 1 });
    assert.equal(locateStep([sealed(3, null)]), undefined);
  });
});
