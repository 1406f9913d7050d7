import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxSupport } from '../../../src/sandbox';
import { useTempWorkspace } from '../support/tempWorkspace';
import { HookRuns, answer, command, finished, group, hookNotices } from './support/hookRuns';

// Hooks in `loopwire exec` (issue 50, item 4), in Claude Code's schema, around tool calls: the built bin against
// the embedded backend's scripted model, real hook scripts. PreToolUse denies with a reason the model receives
// (JSON, and exit code 2), allows a call that would have been asked (yet the user's deny rule wins), asks
// (declined without a terminal); `Bash` matches exec_command, `Edit|Write` does not; a hook that times out or
// crashes is shown and the call runs.

describe('cli: loopwire exec runs PreToolUse hooks', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({ 'README.md': '# a project\n' }, { prefix: 'h-hook-pre' });
  let runs: HookRuns;
  before(() => (runs = new HookRuns(temp)));
  after(() => runs.remove());

  it('PreToolUse deny (JSON, matcher Bash): the call is not run, the model gets the reason', async () => {
    const deny = runs.hookScript(
      'deny',
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'deny',permissionDecisionReason:'no rm here: use git clean'}}));`,
    );
    const file = runs.hooksFile({ PreToolUse: [group('Bash', deny)] });
    const run = await runs.exec(
      [{ match: '^run it', steps: [command('touch denied.txt'), answer('Done.')] }],
      ['--approve', 'all', '--hooks', file],
    );
    assert.equal(run.code, 0, run.stderr);
    const [call] = finished(run.events);
    assert.equal(call?.declined, true);
    assert.match(call?.output ?? '', /a PreToolUse hook the user set up denied it, saying: no rm here: use git clean/);
    assert.match(run.transcript, /function_call_output.*no rm here: use git clean/);
    assert.ok(!fs.existsSync(temp.path('denied.txt')), 'the call did not run');
    const seen = runs.seen('deny');
    assert.equal(seen['hook_event_name'], 'PreToolUse');
    assert.equal(seen['tool_name'], 'exec_command');
    assert.deepEqual(seen['tool_input'], { cmd: 'touch denied.txt', command: 'touch denied.txt' });
    assert.equal(seen['cwd'], temp.dir);
    for (const field of ['session_id', 'transcript_path', 'tool_use_id']) assert.equal(typeof seen[field], 'string');
    // The decision names its call: the panel puts it on that call's card.
    assert.deepEqual(hookNotices(run.events)[0]?.hook, {
      event: 'PreToolUse',
      decision: 'deny',
      reason: 'no rm here: use git clean',
      callId: call?.callId,
    });
  });

  it('PreToolUse exit code 2 blocks, its stderr the reason; a matcher naming another tool does not run', async () => {
    const block = runs.hookScript('block', `process.stderr.write('blocked by policy');process.exit(2);`);
    const other = runs.hookScript('other', `process.exit(2);`);
    const file = runs.hooksFile({ PreToolUse: [group('exec_command', block), group('Edit|Write', other)] });
    const run = await runs.exec(
      [{ match: '^run it', steps: [command('touch blocked.txt'), answer('Done.')] }],
      ['--approve', 'all', '--hooks', file],
    );
    const [call] = finished(run.events);
    assert.equal(call?.declined, true);
    assert.match(call?.output ?? '', /saying: blocked by policy/);
    assert.ok(!fs.existsSync(temp.path('blocked.txt')));
    assert.ok(!fs.existsSync(temp.path('seen-other.json')), 'Edit|Write does not name exec_command');
  });

  it('PreToolUse allow runs an edit unasked, but not one of a protected folder (.vscode), and a deny rule still wins', async () => {
    const allow = runs.hookScript(
      'allow',
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow'}}));`,
    );
    fs.mkdirSync(path.join(runs.config, 'loopwire'), { recursive: true });
    fs.writeFileSync(path.join(runs.config, 'loopwire', 'command-rules.json'), JSON.stringify({ deny: ['touch'] }));
    const write = (file: string) => ({
      output: [{ type: 'function_call', name: 'write_file', arguments: { path: file, content: '{}\n' } }],
    });
    try {
      const file = runs.hooksFile({ PreToolUse: [group('*', allow)] });
      // --approve ask would ask for the first edit: exec refuses ask without a terminal, so the mode here is
      // auto, whose only question about an edit is a protected folder's, declined without a terminal.
      const run = await runs.exec(
        [
          {
            match: '^run it',
            steps: [write('allowed.json'), write('.vscode/allowed.json'), command('touch ruled.txt'), answer('Done.')],
          },
        ],
        ['--approve', 'auto', '--hooks', file],
      );
      const [edit, protectedEdit, denied] = finished(run.events);
      assert.equal(edit?.ok, true, edit?.output);
      assert.equal(fs.readFileSync(temp.path('allowed.json'), 'utf8'), '{}\n');
      // The hook's yes does not reach .git, .vscode and the like: their edit is still asked (here: no terminal).
      assert.equal(protectedEdit?.declined, true, protectedEdit?.output);
      assert.ok(!fs.existsSync(temp.path('.vscode/allowed.json')), 'the protected edit was not written');
      assert.equal(denied?.declined, true);
      assert.match(denied?.output ?? '', /because/);
      assert.ok(!fs.existsSync(temp.path('ruled.txt')), 'the deny rule won over the hook');
    } finally {
      fs.rmSync(path.join(runs.config, 'loopwire', 'command-rules.json'));
    }
  });

  it('PreToolUse allow does not let a call out of the sandbox: an escalation it allows runs confined', async function () {
    if (!sandboxSupport().available) this.skip();
    const allow = runs.hookScript(
      'allow-out',
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'allow'}}));`,
    );
    const target = path.join('/var/tmp', `loopwire-h-hook-${process.pid}-${randomBytes(4).toString('hex')}`);
    const escalated = {
      output: [
        {
          type: 'function_call',
          name: 'exec_command',
          arguments: { cmd: `touch ${target}`, sandbox_permissions: 'require_escalated', justification: 'out' },
        },
      ],
    };
    const file = runs.hooksFile({ PreToolUse: [group('Bash', allow)] });
    try {
      const run = await runs.exec(
        [{ match: '^run it', steps: [escalated, answer('Done.')] }],
        ['--approve', 'auto', '--hooks', file],
      );
      const [call] = finished(run.events);
      assert.equal(call?.declined, undefined, 'not asked: the hook allowed it');
      assert.equal(call?.ok, false);
      assert.match(call?.output ?? '', /The sandbox \(workspace-write, network off\) refused this/);
      assert.ok(!fs.existsSync(target), `${target} was written`);
    } finally {
      fs.rmSync(target, { force: true });
    }
  });

  it('PreToolUse ask asks where auto would not: without a terminal, declined', async () => {
    const ask = runs.hookScript(
      'ask',
      `console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'PreToolUse',permissionDecision:'ask',permissionDecisionReason:'check this one'}}));`,
    );
    const file = runs.hooksFile({ PreToolUse: [group('Bash', ask)] });
    const run = await runs.exec(
      [{ match: '^run it', steps: [command('touch asked.txt'), answer('Done.')] }],
      ['--approve', 'auto', '--hooks', file],
    );
    const [call] = finished(run.events);
    assert.equal(call?.declined, true);
    assert.match(run.stderr, /no terminal/);
    assert.ok(!fs.existsSync(temp.path('asked.txt')));
  });

  it('a hook that times out, and one that crashes, are shown; the call runs and the task goes on', async () => {
    const slow = runs.hookScript('slow', `setTimeout(() => undefined, 20000);`);
    const crash = runs.hookScript('crash', `process.stderr.write('TypeError: boom');process.exit(1);`);
    const file = runs.hooksFile({ PreToolUse: [group('Bash', slow, 1), group(undefined, crash)] });
    const started = Date.now();
    const run = await runs.exec(
      [{ match: '^run it', steps: [command('touch went-on.txt'), answer('Done.')] }],
      ['--approve', 'all', '--hooks', file],
    );
    assert.equal(run.code, 0, run.stderr);
    assert.ok(Date.now() - started < 10_000, 'the slow hook was killed at its timeout');
    assert.equal(finished(run.events)[0]?.ok, true);
    assert.ok(fs.existsSync(temp.path('went-on.txt')));
    const said = hookNotices(run.events).map((e) => e.message ?? '');
    assert.ok(
      said.some((m) => /hook PreToolUse timed out after 1 s/.test(m)),
      said.join('\n'),
    );
    assert.ok(
      said.some((m) => /hook PreToolUse failed with exit code 1 .*TypeError: boom/.test(m)),
      said.join('\n'),
    );
  });
});
