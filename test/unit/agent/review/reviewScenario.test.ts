import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseReview, prepareReview } from '../../../../src/agent';
import type { AnyInputItem } from '../../../../src/protocol';
import { DEFAULT_SCENARIOS } from '../../../../src/server';
import { newSideLine } from '../../../../src/server/diffLines';
import { ScriptedModel } from '../../../../src/server/scriptedModel';
import { repoRoot } from '../../support/runProcess';
import { type GitRepo, gitRepo } from './gitRepo';

// The scripted model's review of the demo's planted bug: a copy of demo/workspace committed with applyDiscount
// right, the bug planted back as a change, the review's real prompt (real git) sent to the default scenarios.
// The finding's line comes from the diff in the prompt (`{{diff_line.bug}}`), so it follows the bug wherever
// the change puts it.

const BUG = '  return roundCents(amount - percent);';
const FIXED = '  return roundCents(amount * (1 - percent / 100));';

/** The model's answers to `prompt` until it stops calling tools; each call's output is a stand-in. */
function play(prompt: string): { calls: string[]; answer: string } {
  const model = new ScriptedModel([DEFAULT_SCENARIOS]);
  const items: AnyInputItem[] = [{ type: 'message', role: 'user', content: prompt }];
  const calls: string[] = [];
  for (let turn = 0; turn < 4; turn++) {
    const { output } = model.respond(items);
    items.push(...(output as AnyInputItem[]));
    const call = output.find((item) => item.type === 'function_call');
    if (call === undefined) {
      const message = output.find((item) => item.type === 'message');
      const text = message?.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
      return { calls, answer: text ?? '' };
    }
    calls.push(`${call.name} ${call.arguments}`);
    items.push({ type: 'function_call_output', call_id: call.call_id, output: '(read)' });
  }
  return assert.fail('the review did not end');
}

describe('review: the scripted model finds the demo’s planted bug at its line', function () {
  this.timeout(20_000);
  let repo: GitRepo;
  let cart: string;
  beforeEach(() => {
    repo = gitRepo('review-demo');
    fs.cpSync(path.join(repoRoot, 'demo/workspace'), repo.dir, { recursive: true });
    cart = fs.readFileSync(path.join(repo.dir, 'src/cart.js'), 'utf8');
    assert.ok(cart.includes(BUG), 'the demo ships its bug');
    repo.write('src/cart.js', cart.replace(BUG, FIXED));
    repo.commit('the demo, right');
  });
  afterEach(() => repo.remove());

  for (const [label, above] of [
    ['where the demo has it', ''],
    ['moved down by lines the change adds above it', '// one\n// two\n// three\n// four\n// five\n'],
  ] as const) {
    it(`reports it at its line: ${label}`, async () => {
      repo.write('src/money.js', `${fs.readFileSync(path.join(repo.dir, 'src/money.js'), 'utf8')}// untouched\n`);
      const planted = cart.replace("'use strict';\n", `'use strict';\n${above}`);
      repo.write('src/cart.js', planted);
      const request = await prepareReview(repo.dir, '');
      if ('problem' in request) assert.fail(request.problem);
      const { calls, answer } = play(request.prompt);
      assert.deepEqual(calls, ['read_file {"path":"src/cart.js"}']);
      const report = parseReview(answer, repo.dir);
      assert.equal(report.problems, undefined, answer);
      const line = planted.split('\n').indexOf(BUG) + 1;
      assert.ok(line > 10);
      assert.deepEqual(
        report.findings.map(({ file, line, severity }) => ({ file, line, severity })),
        [{ file: 'src/cart.js', line, severity: 'high' }],
      );
      assert.equal(report.verdict, 'incorrect');
    });
  }

  it('a review with no planted bug: no findings, said plainly', async () => {
    repo.write('README.md', 'changed\n');
    const request = await prepareReview(repo.dir, '');
    if ('problem' in request) assert.fail(request.problem);
    const report = parseReview(play(request.prompt).answer);
    assert.deepEqual(report, {
      findings: [],
      verdict: 'correct',
      explanation: 'The offline model found nothing it knows in these changes.',
    });
  });

  it('counts a hunk’s context and added lines from its header, never the removed ones', () => {
    const diff = '@@ -10,4 +20,5 @@ f\n a\n-b\n+c\n d\n+e\n-f\n';
    assert.equal(newSideLine(diff, diff.indexOf('+c')), 21);
    assert.equal(newSideLine(diff, diff.indexOf('+e')), 23);
    assert.equal(newSideLine(diff, diff.indexOf('-b')), undefined);
    assert.equal(newSideLine('no hunk\n+x\n', 8), undefined);
  });
});
