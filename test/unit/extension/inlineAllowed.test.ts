import * as assert from 'node:assert/strict';
import { APPROVAL_MODES } from '../../../src/agent/approvals/approvals';
import { fixOffers, inlineAllowed } from '../../../src/extension/inline/inlineAllowed';

// The light bulb's fixes per approval mode: the streamed edit is its own approval in `ask`, `auto` and `all`; in
// `read-only` and `plan` nothing may be written, so only Fix in Chat is offered (and Ctrl+I is not bound).

describe('inline fixes per approval mode', () => {
  it('offers Fix with Loopwire first, then Fix in Chat, in ask, auto and all; Fix in Chat alone in read-only and plan', () => {
    const table = Object.fromEntries(APPROVAL_MODES.map((mode) => [mode, fixOffers(mode)]));
    assert.deepEqual(table, {
      ask: ['inline', 'chat'],
      all: ['inline', 'chat'],
      'read-only': ['chat'],
      plan: ['chat'],
      auto: ['inline', 'chat'],
    });
  });

  it('inline edits are allowed exactly where the inline fix is offered', () => {
    for (const mode of APPROVAL_MODES) assert.equal(inlineAllowed(mode), fixOffers(mode).includes('inline'), mode);
  });
});
