import * as assert from 'node:assert/strict';
import { PickerWrites } from '../../../src/extension/settings/pickerWrites';

// The composer pickers' writes (src/extension/settings/pickerWrites.ts): Down then Up quickly is two writes, and the
// second must land last (VS Code's reload after each write could land out of order when both ran at once).
// The choices are sent once, when the last write is done.

/** A write that takes `ms` and records when it started and ended. */
function write(log: string[], name: string, ms: number, fail = false): () => Promise<void> {
  return async () => {
    log.push(`${name} starts`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    log.push(`${name} ends`);
    if (fail) throw new Error(`${name} failed`);
  };
}

describe("the composer pickers' writes", () => {
  it('run one at a time in the order picked, a slow first one before the second, and answer once', async () => {
    const log: string[] = [];
    const writes = new PickerWrites(() => log.push('choices sent'));
    const first = writes.run(write(log, 'none', 30));
    const second = writes.run(write(log, 'default', 1));
    assert.equal(writes.busy, true);
    await Promise.all([first, second]);
    assert.deepEqual(log, ['none starts', 'none ends', 'default starts', 'default ends', 'choices sent']);
    assert.equal(writes.busy, false);
  });

  it('a failed write is its caller’s, does not stop the next, and the choices are still sent', async () => {
    const log: string[] = [];
    const writes = new PickerWrites(() => log.push('choices sent'));
    const first = writes.run(write(log, 'none', 10, true));
    const second = writes.run(write(log, 'default', 1));
    await assert.rejects(first, /none failed/);
    await second;
    assert.deepEqual(log, ['none starts', 'none ends', 'default starts', 'default ends', 'choices sent']);
    // Alone, a failed write answers with what is in force.
    await assert.rejects(writes.run(write(log, 'high', 1, true)));
    assert.equal(log.at(-1), 'choices sent');
  });
});
