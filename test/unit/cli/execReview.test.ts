import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AgentEvent, REVIEW_HEADING } from '../../../src/agent';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { type GitRepo, gitRepo } from '../agent/review/gitRepo';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// The built `loopwire exec "/review"` against the real server (the default scenarios' scripted model), on a real
// git copy of demo/workspace committed right, with the demo's bug planted back: the finding printed at its
// line, given as one `review` event with --json, for the working tree and for a range; the request that went
// carried the diff and offered no tool that writes.

const BUG = '  return roundCents(amount - percent);';
const FIXED = '  return roundCents(amount * (1 - percent / 100));';

interface Sent {
  tools?: { name?: string }[];
  input: { role?: string; content: unknown }[];
}
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : ((content as { text?: string }[] | undefined)?.[0]?.text ?? '');

describe('cli: loopwire exec "/review"', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({}, { prefix: 'h-review' });
  const run = useExecAgainstServer(temp);
  let repo: GitRepo;
  let line: number;
  beforeEach(() => {
    repo = gitRepo('h-review-repo');
    fs.cpSync(path.join(repoRoot, 'demo/workspace'), repo.dir, { recursive: true });
    const cart = fs.readFileSync(path.join(repo.dir, 'src/cart.js'), 'utf8');
    repo.write('src/cart.js', cart.replace(BUG, FIXED));
    repo.commit('the demo, right');
    const planted = cart.replace("'use strict';\n", "'use strict';\n// the cart\n");
    repo.write('src/cart.js', planted);
    line = planted.split('\n').indexOf(BUG) + 1;
  });
  afterEach(() => repo.remove());

  it('prints the planted bug at its line, with its fix; exit 0; the request offered no tool that writes', async () => {
    const result = await run.exec(['--workspace', repo.dir, '/review']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /\nReview: 1 finding\.\n/);
    assert.match(
      result.stdout,
      new RegExp(`\\n {2}HIGH {5}src/cart\\.js:${line} {2}applyDiscount subtracts the percent itself`),
    );
    assert.match(result.stdout, /\n {11}suggestion: return roundCents\(amount \* \(1 - percent \/ 100\)\);\n/);
    const [, first] = (await run.requests()) as Sent[];
    const names = (first?.tools ?? []).map((tool) => tool.name ?? '');
    assert.ok(names.length >= 4, names.join(', '));
    assert.deepEqual(
      names.filter((name) => BUILTIN_TOOLS.effect(name) === 'write'),
      [],
    );
    const prompt = textOf(first?.input.findLast((item) => item.role === 'user')?.content);
    assert.ok(prompt.startsWith(REVIEW_HEADING), prompt.slice(0, 200));
    assert.ok(prompt.includes(`-${FIXED}\n+${BUG}\n`), 'the diff goes with the first request');
  });

  it('--json gives the findings as one review event', async () => {
    const result = await run.exec(['--workspace', repo.dir, '--json', '/review']);
    assert.equal(result.code, 0, result.stderr);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((text) => AgentEvent.parse(JSON.parse(text)));
    const reviews = events.filter((event) => event.type === 'review');
    assert.equal(reviews.length, 1);
    const [review] = reviews;
    assert.ok(review?.type === 'review');
    assert.deepEqual(
      review.findings.map(({ file, line, severity }) => ({ file, line, severity })),
      [{ file: 'src/cart.js', line, severity: 'high' }],
    );
    assert.equal(review.verdict, 'incorrect');
    assert.equal(events.at(-1)?.type, 'review', 'after the task’s done');
  });

  it('a range: the committed bug found in HEAD~1..HEAD; a bad target is exit 2, nothing sent', async () => {
    repo.commit('plant the bug');
    const result = await run.exec(['--workspace', repo.dir, '/review HEAD~1..HEAD']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, new RegExp(`src/cart\\.js:${line} `));
    const bad = await run.exec(['--workspace', repo.dir, '/review nosuch..HEAD']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /\/review: 'nosuch' names no commit of this repository/);
  });
});
