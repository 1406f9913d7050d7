import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import { useTempWorkspace } from '../support/tempWorkspace';
import { type Event, HookRuns, answer, command, group } from './support/hookRuns';

// Hooks in `loopwire exec` (issue 50, item 4) at a task's start and end:
// UserPromptSubmit adds context or refuses the prompt; Stop sends the agent on once; a workspace's own hook
// files run only with --hooks (execHooksFiles.test.ts); a hook's environment holds no key or secret and,
// where the sandbox exists, it is confined.

describe('cli: loopwire exec runs prompt, Stop and workspace hooks', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({ 'README.md': '# a project\n' }, { prefix: 'h-hook-task' });
  let runs: HookRuns;
  before(() => (runs = new HookRuns(temp)));
  after(() => runs.remove());

  it('UserPromptSubmit adds context (plain stdout) after the prompt', async () => {
    const context = runs.hookScript('context', `console.log('The release branch is frozen.');`);
    const file = runs.hooksFile({ UserPromptSubmit: [group(undefined, context)] });
    const run = await runs.exec(
      [{ match: '^run it', steps: [answer('Done.')] }],
      ['--approve', 'all', '--hooks', file],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.transcript, /<hook_context event=\\"UserPromptSubmit\\">\\nThe release branch is frozen\./);
    const seen = runs.seen('context');
    assert.equal(seen['prompt'], 'run it');
  });

  it("SessionStart's context goes after the prompt; PostToolUse's after the call's output", async () => {
    const start = runs.hookScript(
      'start',
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'SessionStart',additionalContext:'On call: Ana.'}}));`,
    );
    const post = runs.hookScript('post', `process.stderr.write('lint: 2 warnings');process.exit(2);`);
    const file = runs.hooksFile({ SessionStart: [group(undefined, start)], PostToolUse: [group('Bash', post)] });
    const steps = [command('echo hi'), answer('Done.')];
    // Project instructions come first in a new session: it is still its startup.
    await temp.write('AGENTS.md', '# Rules\n');
    const run = await runs
      .exec([{ match: '^run it', steps }], ['--approve', 'all', '--hooks', file])
      .finally(() => fs.rmSync(temp.path('AGENTS.md')));
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.transcript, /<hook_context event=\\"SessionStart\\">\\nOn call: Ana\./);
    assert.match(run.transcript, /function_call_output.*hi.*A PostToolUse hook the user set up says: lint: 2 warnings/);
    assert.equal(runs.seen('start')['source'], 'startup');
    assert.equal((runs.seen('post')['tool_response'] as { success?: boolean }).success, true);
  });

  it('UserPromptSubmit blocks the prompt: the task ends with the reason, the model never sees it', async () => {
    const refuse = runs.hookScript(
      'refuse',
      `console.log(JSON.stringify({decision:'block',reason:'no tasks on Fridays'}));`,
    );
    const file = runs.hooksFile({ UserPromptSubmit: [group(undefined, refuse)] });
    const run = await runs.exec(
      [{ match: '^run it', steps: [answer('Done.')] }],
      ['--approve', 'all', '--hooks', file],
    );
    assert.equal(run.code, 1);
    const done = run.events.find((e) => e.type === 'done') as Event & { reason?: string };
    assert.equal(done.code, 'hook_blocked');
    assert.match(done.reason ?? '', /no tasks on Fridays/);
    assert.doesNotMatch(run.transcript, /run it/);
  });

  it('Stop blocks once: the agent goes on with the reason, stop_hook_active on the repeat', async () => {
    const stop = runs.hookScript(
      'stop',
      `if(!input.stop_hook_active)console.log(JSON.stringify({decision:'block',reason:'now run the tests too'}));` +
        `else require('fs').writeFileSync('stop-again.json',s);`,
    );
    const file = runs.hooksFile({ Stop: [group(undefined, stop)] });
    const run = await runs.exec(
      [
        { match: '^run it', steps: [answer('First answer.')] },
        { match: '^now run the tests', steps: [answer('Tests run.')] },
      ],
      ['--approve', 'all', '--hooks', file],
    );
    assert.equal(run.code, 0, run.stderr);
    const messages = run.events.filter((e) => e.type === 'message').map((e) => (e as { text?: string }).text);
    assert.deepEqual(messages, ['First answer.', 'Tests run.']);
    assert.equal(run.events.filter((e) => e.type === 'done').length, 1);
    const again = JSON.parse(fs.readFileSync(temp.path('stop-again.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(again['stop_hook_active'], true);
  });

  it("a hook's environment has no key or secret; where the sandbox exists it cannot write outside the workspace", async () => {
    const outside = path.join('/var/tmp', `loopwire-h-hook-${process.pid}-${randomBytes(4).toString('hex')}`);
    const env = runs.hookScript(
      'env',
      `const fs=require('fs');fs.writeFileSync('hook-env.json',JSON.stringify(process.env));` +
        `try{fs.writeFileSync(${JSON.stringify(outside)},'x')}catch{}`,
    );
    const file = runs.hooksFile({ UserPromptSubmit: [group(undefined, env)] });
    const secrets = { OPENAI_API_KEY: 'sk-test-not-a-key-0000', DEPLOY_TOKEN: 'token-value-123456' };
    try {
      const run = await runs.exec(
        [{ match: '^run it', steps: [answer('Done.')] }],
        ['--approve', 'auto', '--hooks', file],
        secrets,
      );
      assert.equal(run.code, 0, run.stderr);
      const seen = JSON.parse(fs.readFileSync(temp.path('hook-env.json'), 'utf8')) as Record<string, string>;
      assert.equal(seen['OPENAI_API_KEY'], undefined);
      assert.equal(seen['DEPLOY_TOKEN'], undefined);
      assert.equal(seen['CLAUDE_PROJECT_DIR'], temp.dir);
      if (sandboxSupport().available) {
        assert.ok(!fs.existsSync(outside), 'confined: /var/tmp is read-only');
        assert.match(run.stderr, /\(hooks run in the sandbox: workspace-write, network on\)/);
      }
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });
});
