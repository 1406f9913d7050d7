import * as assert from 'node:assert/strict';
import {
  type InlineRequest,
  inlineHeadline,
  inlinePrompt,
  linesAround,
  problemsIn,
} from '../../../src/extension/inline/inlineRequest';

// What an inline request tells the model: the lines, the file's path and language, the problems in range,
// and the first line the embedded backend's scenarios match on.

const problem = { line: 3, column: 28, severity: 'error' as const, message: 'Value expected', source: 'json' };

const fix: InlineRequest = {
  kind: 'fix',
  path: 'config/shipping.json',
  languageId: 'json',
  first: 1,
  last: 5,
  lines: ['{', '  "currency": "USD",', '  "freeShippingFrom": 5000,,', '  "flatRate": 499', '}'],
  instruction: 'Value expected',
  problem,
  problems: [problem, { line: 4, column: 3, severity: 'warning', message: 'Odd key' }],
};

describe('inline request: what the model is sent', () => {
  it('takes lines around the cursor, inside the document', () => {
    assert.deepEqual(linesAround(0, 30), { first: 1, last: 6 });
    assert.deepEqual(linesAround(19, 24), { first: 15, last: 24 });
    assert.deepEqual(linesAround(0, 1), { first: 1, last: 1 });
  });

  it('keeps the problems that touch the range, errors first', () => {
    const found = problemsIn(
      [
        { line: 1, column: 1, severity: 'hint', message: 'a' },
        { line: 8, endLine: 12, column: 1, severity: 'warning', message: 'b' },
        { line: 11, column: 4, severity: 'error', message: 'c' },
        { line: 30, column: 1, severity: 'error', message: 'd' },
      ],
      10,
      20,
    );
    assert.deepEqual(
      found.map((p) => p.message),
      ['c', 'b'],
    );
    assert.equal('endLine' in (found[1] ?? {}), false);
  });

  it('a fix names the problem first, then the lines, the other problems and the rule of one file', () => {
    const prompt = inlinePrompt(fix);
    assert.equal(
      prompt.split('\n')[0],
      'Fix this problem inline in config/shipping.json at line 3, column 28: Value expected',
    );
    assert.match(prompt, /^ {3}3 \| {3}"freeShippingFrom": 5000,,$/m);
    assert.match(prompt, /```json\n/);
    assert.match(prompt, /- line 4, column 3: warning: Odd key/);
    assert.doesNotMatch(prompt, /- line 3, column 28/, 'the problem fixed is not listed twice');
    assert.match(prompt, /change config\/shipping\.json only/);
  });

  it('an edit names the file, the lines and the words typed', () => {
    const edit: InlineRequest = { ...fix, kind: 'edit', instruction: 'use tabs', problems: [] };
    delete edit.problem;
    assert.equal(inlineHeadline(edit), 'Edit config/shipping.json inline, lines 1–5: use tabs');
    assert.equal(inlineHeadline({ ...edit, last: 1 }), 'Edit config/shipping.json inline, line 1: use tabs');
    assert.doesNotMatch(inlinePrompt(edit), /Problems the editor shows/);
  });
});
