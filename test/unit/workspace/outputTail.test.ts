import * as assert from 'node:assert/strict';
import { headAndTail } from '../../../src/tools/runReport';
import { OutputTail } from '../../../src/workspace/shared/outputTail';

// A run's output keeps its start and its end: what was asked for is at the top, a failure's summary at the
// bottom. What was dropped between them is said, on a line of its own.

describe('a run’s output: head and tail', () => {
  it('keeps everything while it fits', () => {
    const kept = new OutputTail(16, 16);
    kept.push(Buffer.from('one\ntwo\n'));
    kept.push(Buffer.from('three\n'));
    assert.equal(kept.truncated, false);
    assert.equal(kept.text(), 'one\ntwo\nthree\n');
  });

  it('keeps the first and last whole lines of a long output, with the bytes dropped between', () => {
    const kept = new OutputTail(20, 20);
    for (let i = 1; i <= 50; i++) kept.push(Buffer.from(`line ${i}\n`));
    assert.equal(kept.truncated, true);
    const text = kept.text();
    assert.match(text, /^line 1\nline 2\n/);
    assert.match(text, /line 50\n$/);
    assert.match(text, /\n\[… [\d,]+ bytes of output cut from the middle …\]\n/);
    assert.ok(!/line 25\n/.test(text));
  });

  it('never splits a character at the head’s end when the output fits', () => {
    const kept = new OutputTail(64, 5);
    const bytes = Buffer.from('héllo wörld\n');
    for (const byte of bytes) kept.push(Buffer.from([byte]));
    assert.equal(kept.text(), 'héllo wörld\n');
  });

  it('cuts text to a budget at whole lines, naming how many lines went', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `row ${i + 1}`).join('\n');
    const cut = headAndTail(text, 200);
    assert.ok(cut.length < 300);
    assert.match(cut, /^row 1\nrow 2\n/);
    assert.match(cut, /\nrow 1000$/);
    assert.match(cut, /\n\[… [\d,]+ lines \([\d,]+ characters\) cut from the middle …\]\n/);
    assert.equal(headAndTail(text, text.length), text);
  });

  it('cuts a single huge line by characters', () => {
    const cut = headAndTail('x'.repeat(10_000), 100);
    assert.match(cut, /^x{50}\n\[… 9,900 characters cut from the middle …\]\nx{50}$/);
  });

  it('drops terminal escapes: colours, cursor moves, titles and shell integration’s command lines', () => {
    const esc = String.fromCharCode(0x1b);
    const bel = String.fromCharCode(0x07);
    const kept = new OutputTail();
    kept.push(Buffer.from(`${esc}]633;E;echo hi there;nonce${bel}${esc}[1;31mred${esc}[0m${esc}[2K\r\n`));
    kept.push(Buffer.from(`${esc}]0;a title with spaces${esc}\\done${esc}[?2004h\n`));
    assert.equal(kept.text(), 'red\ndone\n');
  });
});
