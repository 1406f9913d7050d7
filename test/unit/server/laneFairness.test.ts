import * as assert from 'node:assert/strict';
import { loadScenarioFile } from '../../../src/server';
import { ECHO_SCENARIO, WsClient, useServer } from './support/harness';
import { storyScenario } from './support/scenarios';

// The lane scheduler is fair (issue 49, item 2): one lane's long 4,000 tok/s stream does not hold back a turn
// on another lane of the same socket, and when the socket's active slots are full a lane that keeps sending
// takes its turn behind the lanes already waiting. Orders only, never times: the machine is shared.

type Frame = WsClient['frames'][number] & { stream_id?: string };

const laneOf = (frame: Frame) => frame.stream_id;
const completed = (frames: readonly Frame[], lane?: string) =>
  frames.filter((frame) => frame.type === 'response.completed' && (lane === undefined || laneOf(frame) === lane));

describe('server lanes: a long stream does not stall another lane', () => {
  // ~4,000 tokens (two a word) at 4,000 tok/s: a second of streaming on lane a.
  const harness = useServer(() => ({
    tps: 4000,
    scenarios: [storyScenario(2000), loadScenarioFile(ECHO_SCENARIO)],
  }));

  it("three turns on lane b complete while lane a's stream goes on, and a keeps streaming between them", async () => {
    const raw = await WsClient.open(harness.url);
    try {
      raw.send({ type: 'response.create', model: 'm', store: false, stream_id: 'a', input: 'tell me a story' });
      await raw.until((frames) => frames.some((frame) => frame.type === 'response.output_text.delta'));
      for (let turn = 0; turn < 3; turn++) {
        const frames = await raw.turn({ model: 'm', store: false, stream_id: 'b', input: 'echo hi' });
        assert.equal(frames.at(-1)?.type, 'response.completed', JSON.stringify(frames.at(-1)));
      }
      assert.equal(completed(raw.frames, 'a').length, 0, "lane a's stream was still running after b's three turns");
      await raw.until((frames) => completed(frames, 'a').length === 1);
      const lanes = (raw.frames as Frame[]).map(laneOf);
      const lastB = lanes.lastIndexOf('b');
      const aDeltas = (raw.frames as Frame[]).filter(
        (frame, index) => index < lastB && laneOf(frame) === 'a' && frame.type === 'response.output_text.delta',
      );
      assert.ok(aDeltas.length > 1, 'a streamed while b ran, not after it');
    } finally {
      raw.close();
    }
  });
});

describe('server lanes: a full socket takes lanes in turn', () => {
  const harness = useServer(() => ({
    tps: 4000,
    scenarios: [storyScenario(40)],
    limits: { activeResponsesPerConnection: 1 },
  }));

  it('a lane with two queued requests lets the lane waiting behind its first go before its second', async () => {
    const raw = await WsClient.open(harness.url);
    try {
      const create = (lane: string) =>
        raw.send({ type: 'response.create', model: 'm', store: false, stream_id: lane, input: 'tell me a story' });
      create('a');
      create('a');
      create('b');
      await raw.until((frames) => completed(frames).length === 3);
      assert.deepEqual(
        completed(raw.frames).map(laneOf),
        ['a', 'b', 'a'],
        'round robin: b waited for one of a, not both',
      );
    } finally {
      raw.close();
    }
  });
});
