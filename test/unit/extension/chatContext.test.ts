import * as assert from 'node:assert/strict';
import { compactTokens, groupedTokens, meterLine, meterText } from '../../../src/protocol/contextMeter';
import type { ChatEntry, ContextMeter, HostMessage } from '../../../src/protocol/chatView';
import { useAgentBench } from '../agent/agentHarness';
import { HUGE_PROMPT, LONG_PROMPT, LONG_READS as READS, longFiles, longScenario } from '../agent/longScenario';
import { useChatBench } from './chatHarness';

// The panel's side of long sessions (issue 22): the token meter the host sends after each turn and keeps in
// the state and the snapshot, and the marker a compaction leaves in the conversation. A real agent against
// the real server with a small window, as test/unit/agent/longSession.test.ts runs it: the server tokenizes,
// compacts and refuses as it does for any client.

// Small enough that a dozen reads of 700 tokens cross the thresholds, large enough that what every request
// carries (the standing instructions, the tools, the environment item: about 2,800 tokens) stays under them.
const WINDOW = 6_400;

const MARKER = /^Context compacted( on request)? \(([\d,]+) → ([\d,]+) tokens\)$/;
const number = (text: string) => Number(text.replace(/,/g, ''));

describe('token meter: the words it shows', () => {
  it('counts in a few characters: 950, 1.2k, 38k, 272k, 1.2M', () => {
    const cases: [number, string][] = [
      [0, '0'],
      [950, '950'],
      [999, '999'],
      [1_000, '1k'],
      [1_234, '1.2k'],
      [9_960, '10k'],
      [38_412, '38k'],
      [272_000, '272k'],
      [999_499, '999k'],
      [999_500, '1M'],
      [1_200_000, '1.2M'],
      [12_400_000, '12M'],
    ];
    assert.deepEqual(
      cases.map(([n]) => [n, compactTokens(n)]),
      cases,
    );
    assert.equal(groupedTokens(2_656), '2,656');
    assert.equal(groupedTokens(1_000_000), '1,000,000');
    assert.equal(meterText({ tokens: 38_412, window: 272_000 }), '38k / 272k');
    assert.equal(meterLine({ tokens: 38_412, window: 272_000 }), 'Context: 38,412 of 272,000 tokens (14%)');
    assert.equal(meterLine({ tokens: 271_999, window: 272_000 }), 'Context: 271,999 of 272,000 tokens (99%)');
  });
});

describe('chat panel host: the token meter and the compaction marker', function () {
  this.timeout(60_000);
  const bench = useAgentBench(longScenario, longFiles, { contextWindow: WINDOW });
  const ui = useChatBench(bench);

  const meters = () => ui.sent.flatMap((m) => (m.type === 'context' ? [m.context] : []));
  const lastState = () => ui.sent.findLast((m): m is Extract<HostMessage, { type: 'state' }> => m.type === 'state');
  const markers = (entries: readonly ChatEntry[]) =>
    entries.filter((e): e is Extract<ChatEntry, { kind: 'notice' }> => e.kind === 'notice' && MARKER.test(e.text));

  it('sends the meter after each turn and a marker per compaction; the state and a reload keep both', async () => {
    ui.context = { window: WINDOW, compactAt: 0.6 };
    const chat = ui.controller();
    const outcome = await chat.ask(LONG_PROMPT);
    assert.equal(outcome.ok, true, outcome.text);

    // One meter per turn (and one more at each compaction), all of the window the agent manages.
    const sent = meters();
    const found = markers(chat.model.all);
    assert.ok(found.length >= 2, `compacted ${found.length} times`);
    assert.equal(sent.length, READS + 1 + found.length);
    assert.ok(
      sent.every((m) => m.window === WINDOW && m.tokens > 0 && m.tokens <= WINDOW),
      JSON.stringify(sent),
    );
    for (const marker of found) {
      const [, request, before, after] = MARKER.exec(marker.text) ?? [];
      assert.equal(request, undefined, 'compacted by the server past the threshold');
      assert.ok(number(after ?? '') < number(before ?? ''), marker.text);
      assert.equal(marker.level, 'info');
      // The marker's entry goes to the page, then the meter drops to the compacted size at once.
      const at = ui.sent.findIndex((m) => m.type === 'entry' && m.entry.id === marker.id);
      const next = ui.sent.slice(at).find((m) => m.type === 'context');
      assert.deepEqual(next, { type: 'context', context: { tokens: number(after ?? ''), window: WINDOW } });
    }
    const last = sent.at(-1) as ContextMeter;
    assert.deepEqual(chat.model.context, last);

    // A re-shown panel asks for the state: the meter comes with it.
    await chat.receive({ type: 'ready' });
    assert.deepEqual(lastState()?.context, last);

    // A reloaded window: the snapshot brings back the meter and the markers.
    chat.dispose();
    const reloaded = ui.controller();
    await reloaded.receive({ type: 'ready' });
    const state = lastState();
    assert.deepEqual(state?.context, last);
    assert.deepEqual(
      markers(state?.entries ?? []).map((e) => e.text),
      found.map((e) => e.text),
    );

    // New chat: no meter.
    await reloaded.receive({ type: 'newChat' });
    assert.equal(lastState()?.context, undefined);
    assert.equal(reloaded.model.context, undefined);
  });

  it('marks a compaction on request: a tool output overflowed the window at once', async () => {
    ui.context = { window: WINDOW, compactAt: 0.875 };
    const chat = ui.controller();
    const outcome = await chat.ask(HUGE_PROMPT);
    assert.equal(outcome.ok, true, outcome.text);
    const [first] = markers(chat.model.all);
    assert.match(first?.text ?? '', /^Context compacted on request \([\d,]+ → [\d,]+ tokens\)$/);
    assert.equal(chat.model.all.filter((e) => e.kind === 'notice' && e.level === 'error').length, 0);
    assert.equal(chat.model.context?.window, WINDOW);
  });

  it('with compaction off, the meter fills and the task stops with context_length_exceeded', async () => {
    ui.context = { window: WINDOW, compactAt: 0 };
    const chat = ui.controller();
    const outcome = await chat.ask(LONG_PROMPT);
    assert.equal(outcome.status, 'failed');
    assert.deepEqual(markers(chat.model.all), []);
    const errors = chat.model.all.flatMap((e) => (e.kind === 'notice' && e.level === 'error' ? [e.text] : []));
    assert.ok(
      errors.some((text) => text.includes(`context window of ${WINDOW} tokens, and compaction is off`)),
      JSON.stringify(errors),
    );
    const meter = chat.model.context;
    assert.ok(meter && meter.window === WINDOW && meter.tokens > WINDOW * 0.8, JSON.stringify(meter));
  });
});
