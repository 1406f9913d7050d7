import * as assert from 'node:assert/strict';
import { AgentEvent, parseReview, parseReviewTarget } from '../../../../src/agent';

// A review's answer read: the findings of its last JSON block, each checked alone; what cannot be used is
// said, never thrown. And the targets `/review` takes.

const answer = (json: string) => `The change breaks the discount.\n\n\`\`\`json\n${json}\n\`\`\`\n`;
const good = {
  title: 'Discount subtracts the percent, not a share of the amount',
  body: 'A 10 % discount on 5000 gives 4990.',
  severity: 'high',
  file: 'src/cart.js',
  line: 15,
  suggestion: 'return roundCents(amount - (amount * percent) / 100);',
};

describe('review: the findings read from the answer', () => {
  it('reads the last JSON block: each finding, the verdict', () => {
    const report = parseReview(
      answer(JSON.stringify({ findings: [good], verdict: 'incorrect', explanation: 'One bug.' })),
      '/repo',
    );
    assert.deepEqual(report, { findings: [{ ...good }], verdict: 'incorrect', explanation: 'One bug.' });
    assert.ok(AgentEvent.safeParse({ type: 'review', ...report }).success);
  });

  it('a finding that does not fit is left out with why; the others stay', () => {
    const report = parseReview(
      answer(JSON.stringify({ findings: [{ ...good, line: 0 }, { ...good, severity: 'urgent' }, good] })),
    );
    assert.equal(report.findings.length, 1);
    assert.deepEqual(report.problems?.length, 2);
    assert.match(report.problems?.[0] ?? '', /^Finding 1 left out: line: /);
    assert.match(report.problems?.[1] ?? '', /^Finding 2 left out: severity: /);
  });

  it('a path inside the repository is made relative; one outside it is no finding', () => {
    const report = parseReview(
      answer(
        JSON.stringify({
          findings: [
            { ...good, file: '/repo/src/cart.js' },
            { ...good, file: '../etc/passwd' },
            { ...good, file: '/etc/passwd' },
            { ...good, file: '..' },
            { ...good, file: 'src/../..' },
            { ...good, file: 'src/..' },
            { ...good, file: '\\etc\\passwd' },
            { ...good, file: '\\repo\\src\\cart.js' },
          ],
        }),
      ),
      '/repo',
    );
    assert.deepEqual(
      report.findings.map((finding) => finding.file),
      ['src/cart.js', 'src/cart.js'],
    );
    assert.equal(report.problems?.length, 6, JSON.stringify(report.problems));
  });

  it('no block, bad JSON, no findings list: a problem said', () => {
    assert.match(parseReview('Looks fine to me.').problems?.[0] ?? '', /holds no ```json block/);
    assert.match(parseReview(answer('{"findings": [')).problems?.[0] ?? '', /not valid JSON/);
    assert.match(parseReview(answer('{"issues": []}')).problems?.[0] ?? '', /no "findings" list/);
    assert.deepEqual(parseReview('{"findings": []}'), { findings: [] });
  });

  it('the targets: the working tree, a range, a base, a branch, a commit, and what is none', () => {
    assert.deepEqual(parseReviewTarget(''), { kind: 'working' });
    assert.deepEqual(parseReviewTarget('main..feature'), {
      kind: 'range',
      from: 'main',
      to: 'feature',
      mergeBase: false,
    });
    assert.deepEqual(parseReviewTarget('main...HEAD'), { kind: 'range', from: 'main', to: 'HEAD', mergeBase: true });
    assert.deepEqual(parseReviewTarget('--base origin/main'), { kind: 'base', base: 'origin/main' });
    assert.deepEqual(parseReviewTarget('branch'), { kind: 'base' });
    assert.deepEqual(parseReviewTarget('HEAD~2'), { kind: 'commit', commit: 'HEAD~2' });
    for (const bad of ['--base', '-x', 'a;b', 'HEAD..--output=x']) assert.ok('problem' in parseReviewTarget(bad), bad);
  });
});
