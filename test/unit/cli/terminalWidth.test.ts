import * as assert from 'node:assert/strict';
import stringWidth from 'string-width';
import { fitTail } from '../../../src/cli/exec/terminalWidth';

// The CLI's prompt row while a task runs (terminalSteering.ts): the typed line's end, fitted to the row in
// the columns the terminal draws, so that Chinese text (two columns a character) does not wrap the row.

describe('cli: the prompt row fits the terminal in columns', () => {
  it('keeps a line that fits, whole', () => {
    assert.equal(fitTail('fix the test', 12), 'fix the test');
    assert.equal(fitTail('修复测试', 8), '修复测试');
  });

  it('keeps the end of a wide line: Chinese characters count two columns each', () => {
    const line = '请修复购物车的折扣计算并补上测试';
    const fitted = fitTail(line, 11);
    assert.equal(fitted, '…并补上测试');
    assert.ok(stringWidth(fitted) <= 11, `${stringWidth(fitted)} columns`);
    // Counted in characters, eleven of them would have taken 21 columns.
  });

  it('never splits a character, nor an emoji made of two code units', () => {
    assert.equal(fitTail('ab测试', 4), '…试');
    assert.equal(fitTail('x😀😀', 4), '…😀');
    assert.equal(fitTail('abcdef', 4), '…def');
  });
});
