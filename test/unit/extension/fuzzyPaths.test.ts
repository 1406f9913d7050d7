import * as assert from 'node:assert/strict';
import { fuzzyPaths, fuzzyScore } from '../../../src/extension/chat/composer/fuzzyPaths';

// The `@` picker's ranking, one bonus at a time: each pair of paths is of one length and differs in one
// thing only, so that the better one wins by that bonus alone (and the pair ties without it).

const better = (query: string, winner: string, loser: string) => {
  assert.equal(winner.length, loser.length, 'a pair of one length, so that length does not decide');
  const [a, b] = [fuzzyScore(winner, query), fuzzyScore(loser, query)];
  assert.ok(a !== undefined && b !== undefined && a > b, `${winner} (${a}) above ${loser} (${b}) for "${query}"`);
};

describe('the @ picker’s fuzzy ranking', () => {
  it('ranks characters one after another above the same characters apart', () => {
    better('abc', 'zz/xabzzc', 'zz/xazbzc');
  });

  it('ranks characters in the file’s own name above the same in its folders', () => {
    better('ay', 'zzzz/xaxy.t', 'xaxy/zzzz.t');
  });

  it('ranks a character at the start of a word (after - _ . / or the name’s start) above one inside a word', () => {
    better('a', 'zz/x-a.t', 'zz/xxa.t');
    better('a', 'zz/x_a.t', 'zz/xxa.t');
    better('a', 'zz/x.a.t', 'zz/xxa.t');
  });

  it('ranks the whole query inside the name above a better-placed but broken match', () => {
    // Without the bonus, a-b's two word starts would win.
    better('ab', 'x/yab.t', 'x/a-b.t');
  });

  it('ranks the shorter path first among equals, then by name', () => {
    assert.ok((fuzzyScore('a/cart.js', 'cart') ?? 0) > (fuzzyScore('ab/cart.js', 'cart') ?? 0));
    assert.deepEqual(
      fuzzyPaths(['ab/cart.js', 'b/cart.js', 'a/cart.js'], 'cart').map((match) => match.path),
      ['a/cart.js', 'b/cart.js', 'ab/cart.js'],
    );
  });

  it('finds nothing where a character is missing or out of order', () => {
    assert.equal(fuzzyScore('src/cart.js', 'tc'), undefined);
    assert.equal(fuzzyScore('src/cart.js', 'cartz'), undefined);
    assert.deepEqual(fuzzyPaths(['src/cart.js'], 'zz'), []);
  });
});
