import * as assert from 'node:assert/strict';
import { type AgentEvent, Transcript, approveAll, createAgentSession } from '../../../src/agent';
import { AnyServerEvent, parseWire } from '../../../src/protocol';
import { ReadLedger } from '../../../src/tools';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import {
  REAL_STREAMS,
  type Recording,
  type WarmupAnswer,
  readRecording,
  realStreamFiles,
  recordedCallIds,
  recordedResponseId,
  recordedTexts,
  startRecordedEndpoint,
} from '../support/recordedEndpoint';
import { tempWorkspace } from '../support/tempWorkspace';

// The agent as the extension builds it (createAgentSession, a Node workspace) against every stream recorded
// from the live API in ../shared/real-streams, replayed byte for byte over both transports: the answer is the
// recorded text, each recorded call is answered by its call_id and chained to the recorded response id, the
// recorded quota error stops at once after one request, and no recorded event is taken for a malformed one.

/** What one run of the agent against a recording did. */
interface Run {
  events: AgentEvent[];
  done: Extract<AgentEvent, { type: 'done' }>;
  ms: number;
}

async function runAgent(
  url: string,
  transport: 'ws' | 'http',
  dir: string,
  prompts: string[] = ['What is 2 + 2? Use the calculator.'],
): Promise<Run> {
  const events: AgentEvent[] = [];
  const emit = (event: AgentEvent) => events.push(event);
  const session = createAgentSession({ endpoint: url, transport, emit });
  try {
    const agent = session.agent({
      transcript: Transcript.create({
        id: `real-${transport}`,
        createdAt: new Date().toISOString(),
        workspace: dir,
        model: 'gpt-5.5',
      }),
      tools: { workspace: await NodeWorkspace.open(dir), reads: new ReadLedger() },
      approvals: approveAll,
      emit,
    });
    const started = performance.now();
    await agent.start();
    let done: Run['done'] | undefined;
    for (const prompt of prompts) done = await agent.run(prompt);
    assert.ok(done);
    return { events, done, ms: performance.now() - started };
  } finally {
    session.close(false);
  }
}

/** Whether the recording's last answer ends in an error (the quota recording). */
const endsInError = (recording: Recording): boolean =>
  recording.answers.some((answer) => answer.some((event) => event.value.type === 'error'));

/** What the agent said of frames it could not read, or of faults it recovered from: none of it may happen here. */
const complaints = (events: AgentEvent[]): AgentEvent[] =>
  events.filter(
    (event) =>
      event.type === 'retry' ||
      event.type === 'output_discarded' ||
      event.type === 'notice' ||
      (event.type === 'transport' && event.state === 'reconnecting'),
  );

describe('agent: the streams recorded from the live API', function () {
  this.timeout(30_000);
  const files = realStreamFiles();

  before(function () {
    if (files.length === 0) {
      console.log(`    (no recordings at ${REAL_STREAMS}: the suite has nothing to replay)`);
      this.skip();
    }
  });

  for (const file of files) {
    for (const transport of ['ws', 'http'] as const) {
      it(`${file} over ${transport === 'ws' ? 'WebSocket mode' : 'HTTP+SSE'}`, async () => {
        const recording = readRecording(file);
        const endpoint = await startRecordedEndpoint(recording);
        const temp = await tempWorkspace({}, { prefix: 'real-stream' });
        try {
          const run = await runAgent(endpoint.url, transport, temp.dir);
          if (endsInError(recording)) {
            assert.equal(run.done.status, 'failed', run.done.reason);
            assert.match(run.done.reason, /insufficient_quota/);
            assert.match(run.done.reason, /add credit/, 'the reason says what to do');
            assert.equal(endpoint.generating.length, 1, 'one request, never resent');
            assert.ok(run.ms < 1000, `stopped in ${Math.round(run.ms)} ms`);
            assert.deepEqual(
              run.events.filter((event) => event.type === 'retry'),
              [],
            );
            return;
          }
          assert.equal(run.done.status, 'completed', run.done.reason);
          assert.deepEqual(complaints(run.events), [], 'no event was refused, nothing was retried');
          assert.equal(endpoint.generating.length, recording.answers.length, 'one request per recorded response');
          const last = recording.answers[recording.answers.length - 1] ?? [];
          assert.deepEqual(
            run.events.flatMap((event) => (event.type === 'message' ? [event.text] : [])).slice(-1),
            [recordedTexts(last).join('')],
            'the final text is the recorded output_text.done',
          );
          const streamed = run.events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : [])).join('');
          assert.ok(streamed.endsWith(recordedTexts(last).join('')), 'the text streamed as recorded');
          recording.answers.slice(0, -1).forEach((answer, index) => {
            const after = endpoint.generating[index + 1]?.body;
            assert.ok(after, `a request after recorded response ${index + 1}`);
            const input = after.input as { type?: string; call_id?: string }[];
            const outputs = input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id);
            for (const callId of recordedCallIds(answer)) assert.ok(outputs.includes(callId), `${callId} is answered`);
            if (transport === 'ws') assert.equal(after.previous_response_id, recordedResponseId(answer));
            else
              assert.ok(
                input.some(
                  (item) => item.type === 'function_call' && recordedCallIds(answer).includes(item.call_id ?? ''),
                ),
                'over HTTP the full context carries the recorded call before its output',
              );
          });
        } finally {
          await endpoint.close();
          await temp.remove();
        }
      });
    }
  }

  it('web_search_call items: shown as a line each, kept, and replayed as given in the next full-context request', async function () {
    const file = files.find((name) => name.includes('web-search'));
    if (!file) this.skip();
    const recorded = readRecording(file);
    const twice: Recording = { file, answers: [...recorded.answers, ...recorded.answers] };
    const endpoint = await startRecordedEndpoint(twice);
    const temp = await tempWorkspace({}, { prefix: 'real-hosted' });
    try {
      const run = await runAgent(endpoint.url, 'http', temp.dir, ['What is the weather?', 'And tomorrow?']);
      assert.equal(run.done.status, 'completed', run.done.reason);
      const answer = recorded.answers[0] ?? [];
      const searches = answer.flatMap((event) => {
        const item = event.value.item as { type?: string; id?: string } | undefined;
        return event.value.type === 'response.output_item.done' && item?.type === 'web_search_call' ? [item.id] : [];
      });
      assert.ok(searches.length > 0);
      const hosted = run.events.filter((event) => event.type === 'hosted_call');
      assert.equal(hosted.length, searches.length * 2, 'one line per search, in both tasks');
      assert.match(hosted[0]?.type === 'hosted_call' ? hosted[0].summary : '', /^search /);
      const replayed = (endpoint.generating[1]?.body.input as { type?: string; id?: string }[]).filter(
        (item) => item.type === 'web_search_call',
      );
      assert.deepEqual(
        replayed.map((item) => item.id),
        searches,
        'the second task replays every search item',
      );
    } finally {
      await endpoint.close();
      await temp.remove();
    }
  });

  it('a message of phase commentary is a progress note; the final answer is the other', async () => {
    // The newest models write a note between tool calls (`phase: "commentary"`) and the answer last.
    const event = (value: Record<string, unknown>) => ({ text: JSON.stringify(value), value: value as never });
    const message = (id: string, phase: string, text: string) => ({
      id,
      type: 'message',
      role: 'assistant',
      status: 'completed',
      phase,
      content: [{ type: 'output_text', text, annotations: [] }],
    });
    const response = (status: string, output: unknown[]) => ({ id: 'resp_phase', status, output });
    const items = [
      message('msg_a', 'commentary', 'Looking at the files first.'),
      message('msg_b', 'final_answer', 'All done.'),
    ];
    const answer = [
      event({ type: 'response.created', response: response('in_progress', []) }),
      ...items.flatMap((item, index) => [
        event({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } }),
        event({
          type: 'response.output_text.delta',
          output_index: index,
          content_index: 0,
          item_id: `x${index}`,
          delta: item.content[0]?.text,
        }),
        event({ type: 'response.output_item.done', output_index: index, item }),
      ]),
      event({ type: 'response.completed', response: response('completed', items) }),
    ];
    const endpoint = await startRecordedEndpoint({ file: 'phases', answers: [answer] });
    const temp = await tempWorkspace({}, { prefix: 'real-phase' });
    try {
      const run = await runAgent(endpoint.url, 'ws', temp.dir);
      assert.equal(run.done.status, 'completed', run.done.reason);
      const messages = run.events.flatMap((e) => (e.type === 'message' ? [[e.text, e.phase]] : []));
      assert.deepEqual(messages, [
        ['Looking at the files first.', 'commentary'],
        ['All done.', 'final_answer'],
      ]);
      const deltas = run.events.flatMap((e) => (e.type === 'text_delta' ? [[e.itemId, e.phase]] : []));
      assert.deepEqual(
        deltas,
        [
          ['msg_a', 'commentary'],
          ['msg_b', 'final_answer'],
        ],
        'deltas are told by their item as added, not by the ids they carry',
      );
    } finally {
      await endpoint.close();
      await temp.remove();
    }
  });

  it('every recorded event is read by the protocol’s schemas (loopwire validate’s), none called malformed', () => {
    for (const file of files)
      for (const answer of readRecording(file).answers)
        for (const event of answer) {
          const parsed = parseWire(AnyServerEvent, event.value);
          assert.ok(parsed.ok, `${file}: ${event.value.type}: ${parsed.ok ? '' : parsed.error.message}`);
        }
  });

  // The warm-up's answers a real server may give: none of them fails the task or costs more than one line.
  const answers: [WarmupAnswer, RegExp | undefined][] = [
    ['recorded', undefined],
    ['minimal', undefined],
    ['malformed', /warm-up was refused/],
    ['refused', /warm-up was refused \(unsupported_parameter/],
    ['silent', /warm-up was refused \(no answer within 2 s\)/],
  ];
  for (const [warmup, notice] of answers) {
    it(`a warm-up answered ${warmup === 'silent' ? 'never' : `as ${warmup}`} ${notice ? 'is one notice' : 'chains'}, and the task goes on`, async function () {
      const file = files.find((name) => name.startsWith('pydantic-ai__test_openai_responses_moderation'));
      if (!file) this.skip();
      const recording = readRecording(file);
      const endpoint = await startRecordedEndpoint(recording, { warmup });
      const temp = await tempWorkspace({}, { prefix: 'real-warmup' });
      try {
        const run = await runAgent(endpoint.url, 'ws', temp.dir);
        assert.equal(run.done.status, 'completed', run.done.reason);
        const notices = run.events.filter((event) => event.type === 'notice');
        if (notice) {
          assert.equal(notices.length, 1, JSON.stringify(notices));
          assert.match(notices[0]?.type === 'notice' ? notices[0].message : '', notice);
          assert.equal(
            endpoint.requests.filter((request) => request.body.generate === false).length,
            1,
            'warmed up once',
          );
          const first = endpoint.generating[0]?.body;
          assert.equal(first?.previous_response_id, undefined, 'the first turn goes out with the whole context');
          assert.equal((first?.input as { role?: string }[])[0]?.role, 'developer');
        } else {
          assert.deepEqual(notices, []);
          assert.match(String(endpoint.generating[0]?.body.previous_response_id), /^resp_warmup_1$/);
        }
      } finally {
        await endpoint.close();
        await temp.remove();
      }
    });
  }
});
