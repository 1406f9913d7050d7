import * as assert from 'node:assert/strict';
import { findPathLinks, summaryLinks, workspacePath } from '../../src/webview/pathLinks';

// Which tokens of a tool's output become links that open the file: plain Node, no page (the card that
// renders them is tested in Chromium, panelReview.test.ts).

/** The links of `text`, as the token each covers and what it opens. */
const links = (text: string) =>
  findPathLinks(text).map(({ start, end, ...target }) => ({ token: text.slice(start, end), ...target }));

describe('webview pathLinks: workspace paths in tool output', () => {
  it('finds a path, path:line, path:line:column and path(line,column)', () => {
    assert.deepEqual(links('src/cart.js'), [{ token: 'src/cart.js', path: 'src/cart.js' }]);
    assert.deepEqual(links('at src/cart.js:12'), [{ token: 'src/cart.js:12', path: 'src/cart.js', line: 12 }]);
    assert.deepEqual(links('(src/cart.js:12:5)'), [
      { token: 'src/cart.js:12:5', path: 'src/cart.js', line: 12, column: 5 },
    ]);
    assert.deepEqual(links('test/a.test.js(12,5): error TS2322'), [
      { token: 'test/a.test.js(12,5)', path: 'test/a.test.js', line: 12, column: 5 },
    ]);
    assert.deepEqual(links('./src/cart.js:3'), [{ token: './src/cart.js:3', path: 'src/cart.js', line: 3 }]);
  });

  it('finds several in a test run’s output, with their offsets', () => {
    const output = [
      'not ok 1 - applies the discount',
      "  location: 'test/cart.test.js:10:3'",
      'Error in src/cart.js: see package.json and README.md.',
    ].join('\n');
    const found = findPathLinks(output);
    assert.deepEqual(
      found.map((link) => output.slice(link.start, link.end)),
      ['test/cart.test.js:10:3', 'src/cart.js', 'package.json', 'README.md'],
    );
    assert.deepEqual(found[0], {
      start: output.indexOf('test/'),
      end: output.indexOf("'", output.indexOf('test/')),
      path: 'test/cart.test.js',
      line: 10,
      column: 3,
    });
  });

  it('a sentence’s full stop and a `:` with no number stay outside the link', () => {
    assert.deepEqual(links('I changed src/cart.js.'), [{ token: 'src/cart.js', path: 'src/cart.js' }]);
    assert.deepEqual(links('src/cart.js: 2 problems'), [{ token: 'src/cart.js', path: 'src/cart.js' }]);
    assert.deepEqual(links('src/cart.js:0'), [{ token: 'src/cart.js:0', path: 'src/cart.js' }], 'no line 0');
  });

  it('leaves URLs, absolute paths, `..`, words, numbers and member accesses alone', () => {
    for (const text of [
      'https://example.com/src/cart.js',
      'see example.com/index.html',
      'file:///home/me/src/cart.js:3:1',
      '/home/me/project/src/cart.js:12',
      '~/project/src/cart.js',
      '../outside/secret.js',
      'src/../../etc/passwd.txt',
      'C:\\work\\src\\cart.js',
      'and/or input/output',
      'cart.total is not a function; e.g. Object.keys or console.log',
      'took 0.4s (1.5 ms), v20.9.0',
      'Node.js v20.11.1',
      'user@example.com',
      '.env',
    ])
      assert.deepEqual(links(text), [], text);
  });

  it('a bare file name needs a source extension; a path with a `/` needs any extension', () => {
    assert.deepEqual(links('cart.js config.yaml notes.weird lib/data.weird src/dir'), [
      { token: 'cart.js', path: 'cart.js' },
      { token: 'config.yaml', path: 'config.yaml' },
      { token: 'lib/data.weird', path: 'lib/data.weird' },
    ]);
  });

  it('workspacePath refuses what the host must never be asked to open', () => {
    assert.equal(workspacePath('src/cart.js'), 'src/cart.js');
    assert.equal(workspacePath('./src/cart.js'), 'src/cart.js');
    assert.equal(workspacePath('Makefile'), 'Makefile');
    for (const bad of ['', '/etc/passwd', '../x.js', 'a/../b.js', 'a//b.js', 'https://x.y/z.js', 'a b.js', 'a\\b.js'])
      assert.equal(workspacePath(bad), undefined, bad);
    assert.equal(workspacePath(`${'a/'.repeat(2100)}x.js`), undefined, 'too long');
  });

  it('summaryLinks: each path the host sent, where the summary names it as a whole token', () => {
    assert.deepEqual(summaryLinks('src/cart.js', ['src/cart.js']), [{ start: 0, end: 11, path: 'src/cart.js' }]);
    assert.deepEqual(summaryLinks('src/cart.js, test/cart.test.js', ['test/cart.test.js', 'src/cart.js', 'gone.js']), [
      { start: 0, end: 11, path: 'src/cart.js' },
      { start: 13, end: 30, path: 'test/cart.test.js' },
    ]);
    assert.deepEqual(summaryLinks('fs · touch: ./a.txt', ['./a.txt']), [{ start: 12, end: 19, path: 'a.txt' }]);
    // Inside a longer path it is not that path; an unsafe one is never a link; no paths, no links.
    assert.deepEqual(summaryLinks('lib/a.js', ['a.js']), []);
    assert.deepEqual(summaryLinks('my-a.js a.js', ['a.js']), [{ start: 8, end: 12, path: 'a.js' }]);
    assert.deepEqual(summaryLinks('../etc/passwd', ['../etc/passwd']), []);
    assert.deepEqual(summaryLinks('npm: test', []), []);
  });
});
