import * as assert from 'node:assert/strict';
import { ruleToOffer } from '../../../src/agent';
import { ruleMatches } from '../../../src/agent/approvals/commandApproval';

// The rule an approval card offers ("Always allow `…` in this workspace"): a program's subcommand only where the
// program has them (git, npm, cargo, make…); any other program's whole command, never a prefix cut at the
// second word (`echo walked` for `echo walked through`).

const unsafe = (line: string) => ({ words: line.split(' '), reason: 'not safe' });
const offer = (...lines: string[]) => ruleToOffer(lines.map(unsafe));

describe('the allow rule an approval offers', () => {
  it('program and subcommand for the programs that have subcommands', () => {
    assert.equal(offer('git commit -m wip'), 'git commit');
    assert.equal(offer('npm test -- --grep cart'), 'npm test');
    assert.equal(offer('cargo build --release'), 'cargo build');
    assert.equal(offer('make check'), 'make check');
    assert.equal(offer('docker compose up -d'), 'docker compose');
    assert.equal(offer('go test ./...'), 'go test');
  });

  it('a package script by its name: npm run build, not npm run', () => {
    assert.equal(offer('npm run build'), 'npm run build');
    assert.equal(offer('pnpm run lint --fix'), 'pnpm run lint');
    assert.equal(offer('yarn run'), undefined);
    assert.equal(offer('npm run --silent build'), undefined);
  });

  it('the whole command for any other program: its arguments are data, not a subcommand', () => {
    assert.equal(offer('echo walked through'), 'echo walked through');
    assert.equal(offer('pytest tests/test_cart.py'), 'pytest tests/test_cart.py');
    assert.equal(offer('chmod +x build.sh'), 'chmod +x build.sh');
    assert.equal(offer('tsc'), 'tsc');
    // The rule matches the command it was offered for, and not one with other arguments.
    const rule = offer('echo walked through') as string;
    assert.ok(ruleMatches(rule, ['echo', 'walked', 'through']));
    assert.ok(!ruleMatches(rule, ['echo', 'walked', 'away']));
  });

  it('none where a rule would allow too much or could not be shown', () => {
    for (const line of [
      'make',
      'git',
      'git -C x push',
      'npm -w a test',
      'rm x',
      'bash x.sh',
      'env X=1 npm test',
      './run x',
    ])
      assert.equal(offer(line), undefined, line);
    assert.equal(offer('echo 1 2 3 4 5 6 7'), undefined, 'longer than a card line');
    assert.equal(offer(`echo ${'x'.repeat(100)}`), undefined, 'longer than a card line');
    assert.equal(ruleToOffer([{ words: ['echo', 'two words'], reason: 'not safe' }]), undefined, 'a word with a space');
  });

  it('one rule for every command that is not safe, or none', () => {
    assert.equal(ruleToOffer([unsafe('npm test'), { words: ['rg', 'x'] }]), 'npm test');
    assert.equal(offer('npm test', 'npm test -w a'), 'npm test');
    assert.equal(offer('npm test', 'echo done'), undefined);
    assert.equal(ruleToOffer(undefined), undefined);
  });
});
