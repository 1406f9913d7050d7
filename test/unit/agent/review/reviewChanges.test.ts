import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { prepareReview } from '../../../../src/agent';
import { REVIEW_DIFF_CAP } from '../../../../src/agent/review/reviewChanges';
import { BUILTIN_TOOLS } from '../../../../src/tools';
import { type GitRepo, gitRepo } from './gitRepo';

// What a review carries, gathered from real repositories with real git: the working tree with its untracked
// files, a range with its log, a branch against its merge-base, the size cap; and a hostile repository whose
// config names programs for git to run, none of which runs.

const CART = 'function applyDiscount(amount, percent) {\n  return amount - (amount * percent) / 100;\n}\n';

describe('review: the changes under review, from real git', function () {
  this.timeout(20_000);
  let repo: GitRepo;
  beforeEach(() => {
    repo = gitRepo();
    repo.write('src/cart.js', CART);
    repo.commit('cart');
  });
  afterEach(() => repo.remove());

  const review = async (args = '') => {
    const done = await prepareReview(repo.dir, args);
    if ('problem' in done) assert.fail(done.problem);
    return done;
  };

  it('the working tree: git diff HEAD, staged and not, and each untracked file as added', async () => {
    repo.write('src/cart.js', CART.replace('(amount * percent) / 100', 'percent'));
    repo.write('src/new.js', 'module.exports = 1;\n');
    const { prompt, changes } = await review();
    assert.deepEqual(
      changes.shown.map((file) => file.file),
      ['src/cart.js', 'src/new.js'],
    );
    assert.match(prompt, /\$ git diff HEAD \(and the untracked files, as added\)/);
    assert.match(prompt, /^- {2}return amount - \(amount \* percent\) \/ 100;$/m);
    assert.match(prompt, /^\+ {2}return amount - percent;$/m);
    assert.match(prompt, /^@@ -0,0 \+1,1 @@\n\+module\.exports = 1;$/m);
  });

  it('a range carries its log and its diff; three dots start from the merge-base', async () => {
    const first = repo.git('rev-parse', 'HEAD').trim();
    repo.write('src/cart.js', CART.replace('100', '10'));
    repo.commit('divide by ten');
    const { prompt, changes } = await review(`${first}..HEAD`);
    assert.equal(changes.target.kind, 'range');
    assert.match(prompt, /divide by ten/);
    assert.match(prompt, /^\+ {2}return amount - \(amount \* percent\) \/ 10;$/m);
    const three = await review(`${first}...main`);
    assert.match(three.prompt, /divide by ten/);
  });

  it('a branch against its base: from the merge-base, uncommitted changes included', async () => {
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('src/a.js', 'a\n');
    repo.commit('add a');
    repo.write('src/b.js', 'b\n');
    const { changes, prompt } = await review('--base main');
    assert.deepEqual(
      changes.shown.map((file) => file.file),
      ['src/a.js', 'src/b.js'],
    );
    assert.match(prompt, /add a/);
    assert.deepEqual(
      (await review('branch')).changes.shown.map((file) => file.file),
      ['src/a.js', 'src/b.js'],
    );
  });

  it('past the cap, whole files are left out and named with the command that shows them', async () => {
    const big = `${'x'.repeat(100)}\n`.repeat(Math.ceil(REVIEW_DIFF_CAP / 101) + 10);
    repo.write('src/cart.js', CART.replace('100', '1000'));
    repo.write('zz/big.txt', big);
    repo.commit('big');
    const { prompt, changes } = await review('HEAD~1..HEAD');
    assert.deepEqual(
      changes.omitted.map((file) => file.file),
      ['zz/big.txt'],
    );
    assert.ok(prompt.length < REVIEW_DIFF_CAP + 10_000, `${prompt.length}`);
    assert.match(prompt, /Not shown above, for size \(1 more files\)/);
    assert.match(prompt, /^- zz\/big\.txt \(\d+ lines changed\)$/m);
  });

  it('what names no commit, or could be an option, is a problem said, and nothing runs', async () => {
    for (const [args, said] of [
      ['nosuch..HEAD', /'nosuch' names no commit/],
      ['--output=/tmp/x..HEAD', /is not a branch, commit or range/],
      ['a b', /one target at most/],
    ] as const) {
      const done = await prepareReview(repo.dir, args);
      assert.ok('problem' in done, args);
      assert.match(done.problem, said);
    }
    const outside = await prepareReview(path.dirname(repo.dir), '');
    assert.ok('problem' in outside && /not in a git/.test(outside.problem));
  });

  it('a hostile repository: its fsmonitor, pager, external diff and textconv never run', async () => {
    const marker = path.join(repo.dir, '..', `${path.basename(repo.dir)}-ran`);
    const run = `sh -c 'echo ran >> ${marker}'`;
    fs.appendFileSync(
      path.join(repo.dir, '.git', 'config'),
      `[core]\n\tfsmonitor = ${run}\n\tpager = ${run}\n[diff]\n\texternal = ${run}\n[diff "evil"]\n\ttextconv = ${run}\n[pager]\n\tdiff = ${run}\n\tlog = ${run}\n`,
    );
    repo.write('.gitattributes', '*.js diff=evil\n');
    repo.write('src/cart.js', CART.replace('100', '1'));
    const { prompt } = await review();
    const range = await review('HEAD..HEAD');
    assert.match(prompt, /^\+ {2}return amount - \(amount \* percent\) \/ 1;$/m);
    assert.equal(range.changes.shown.length, 0);
    assert.equal(fs.existsSync(marker), false, 'a program of the repository ran');
  });

  it('a clean filter (which git has no switch to turn off) refuses the review, naming the config', async () => {
    fs.appendFileSync(path.join(repo.dir, '.git', 'config'), `[filter "x"]\n\tclean = touch ran\n`);
    const done = await prepareReview(repo.dir, '');
    assert.ok('problem' in done);
    assert.match(done.problem, /not reviewed: the repository's config .*config sets filter\.clean/);
    assert.equal(fs.existsSync(path.join(repo.dir, 'ran')), false);
  });

  it('offers no tool that writes: only reads, and the shell (run in the read-only mode)', async () => {
    const { tools } = await review();
    const writing = tools.filter((name) => BUILTIN_TOOLS.effect(name) !== 'read');
    assert.equal(writing.length, 1, writing.join(', '));
    assert.ok(tools.length >= 4);
    for (const name of tools) assert.notEqual(BUILTIN_TOOLS.effect(name), 'write', name);
  });
});
