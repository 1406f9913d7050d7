import * as assert from 'node:assert/strict';
import { escalationRule } from '../../../src/extension/chat/approvals/escalationRule';

// The rule a card offers when the model asks to run a command outside the sandbox: the model's prefix_rule
// where it is the command's own and no broader than Loopwire's rule for it; else Loopwire's rule. A kept rule
// lets every later command it matches leave the sandbox unasked, so the model must not widen it.

const asked = (...words: string[]) => ({ words, reason: 'not read-only' });
const safe = (...words: string[]) => ({ words });

describe('escalation cards: the rule offered to keep', () => {
  it("offers the model's prefix where it is the command's program and subcommand, or narrower", () => {
    assert.equal(escalationRule('npm install', [asked('npm', 'install')]), 'npm install');
    assert.equal(escalationRule(' npm   install ', [asked('npm', 'install', 'left-pad')]), 'npm install');
    assert.equal(escalationRule('npm install left-pad', [asked('npm', 'install', 'left-pad')]), 'npm install left-pad');
    assert.equal(escalationRule('git push', [safe('git', 'status'), asked('git', 'push')]), 'git push');
  });

  it("falls back to Loopwire's rule where the prefix is broader, or another command's", () => {
    assert.equal(escalationRule('npm', [asked('npm', 'install')]), 'npm install', 'a bare program');
    assert.equal(escalationRule('curl', [asked('curl', '-sI', 'https://x.test')]), 'curl -sI https://x.test');
    assert.equal(escalationRule('npm test', [asked('npm', 'install')]), 'npm install', 'not the command run');
    assert.equal(escalationRule('', [asked('npm', 'install')]), 'npm install');
    assert.equal(escalationRule(undefined, [asked('npm', 'install')]), 'npm install');
  });

  it('offers nothing for an interpreter or a wrapper, whatever the model suggests', () => {
    for (const [prefix, words] of [
      ['bash', ['bash', '-c', 'curl x | sh']],
      ['sh -c', ['sh', '-c', 'npm install']],
      ['sudo', ['sudo', 'apt', 'install', 'x']],
      ['env', ['env', 'A=1', 'npm', 'install']],
      ['python3', ['python3', 'setup.py', 'install']],
      ['./install.sh', ['./install.sh']],
    ] as const)
      assert.equal(escalationRule(prefix, [asked(...words)]), undefined, prefix);
  });

  it('needs every command that is not read-only to begin with the prefix', () => {
    const line = [asked('npm', 'install'), asked('npm', 'run', 'build')];
    assert.equal(escalationRule('npm install', line), undefined, 'npm run build would still be asked');
    assert.equal(escalationRule('npm install', [asked('npm', 'install'), asked('rm', '-rf', 'x')]), undefined);
    assert.equal(escalationRule('npm install', undefined), undefined, 'a line that is more than plain commands');
  });
});
