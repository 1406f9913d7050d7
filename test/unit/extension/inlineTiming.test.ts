import * as assert from 'node:assert/strict';
import { endLine, timingLine, timingOf } from '../../../src/extension/inline/inlineTiming';

// The inline run's log words for where its time went (the bench and the workbench suite read them): Enter →
// the first painted line, and the way from the model's last streamed delta to the edit's end, where its
// Keep / Undo are drawn.

describe('inline timing: the log line', () => {
  it('says Enter → first painted line in its parts, once every moment is known', () => {
    assert.equal(timingOf({ agentAt: 10, deltaAt: 30 }, 0), undefined);
    const timing = timingOf({ agentAt: 10, deltaAt: 30, previewAt: 45, paintAt: 80 }, 0);
    assert.deepEqual(timing, { agentMs: 10, firstDeltaMs: 20, previewMs: 15, paintMs: 35, totalMs: 80 });
    assert.match(timingLine(timing), /first line painted 80\.0 ms after Enter: agent 10\.0 ms/);
  });

  it('says the way from the last delta to the end: each moment after that delta', () => {
    const marks = { lastDeltaAt: 100, lastPaintAt: 310, toolAt: 104, writeAt: 311, writtenAt: 312, doneAt: 314 };
    assert.equal(
      endLine(marks, 315),
      '; ended 3.0 ms after its last write (after the last delta: last step painted 210.0, tool 4.0, write asked 211.0, written 212.0, agent done 214.0, ended 215.0 ms)',
    );
  });

  it('says what it knows: nothing before the write, a dash for a moment that never came', () => {
    assert.equal(endLine({ lastDeltaAt: 100 }, 200), '');
    assert.equal(endLine({ writtenAt: 150 }, 200), '; ended 50.0 ms after its last write');
    assert.match(endLine({ lastDeltaAt: 100, writtenAt: 150 }, 200), /last step painted —, tool —/);
  });
});
