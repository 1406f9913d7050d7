import * as assert from 'node:assert/strict';
import { parseHooks } from '../../../src/agent/hooks/hookConfig';
import { matchesTool } from '../../../src/agent/hooks/hookMatcher';
import { combineVerdicts, hookVerdict } from '../../../src/agent/hooks/hookOutcome';
import { TOOLS } from '../../../src/tools';

// The rules of hooks without a process (src/agent/hooks): a file's shape as Claude Code and VS Code write it,
// the matcher (Claude Code's tool names mapped to ours), a hook's exit code and JSON read as Claude Code reads
// them, and the verdicts of an event's hooks combined. The runs themselves: test/unit/cli/execHooks*.test.ts.

const shell = TOOLS.exec_command.name;
const patch = TOOLS.apply_patch.name;
const read = TOOLS.read_file.name;
const exited = (code: number, stdout = '', stderr = '') => ({ kind: 'exited' as const, code, stdout, stderr });

describe('hooks: files, matchers and verdicts', () => {
  it("reads Claude Code's matcher groups and VS Code's bare commands; other events and other tools' files give none", () => {
    const text = JSON.stringify({
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'a', timeout: 5 }] }],
        Stop: [{ type: 'command', command: 'b' }],
        Notification: [{ hooks: [{ type: 'command', command: 'c' }] }],
        preToolUse: [{ type: 'command', bash: 'd' }],
      },
    });
    assert.deepEqual(parseHooks(text, 'f.json'), [
      { event: 'PreToolUse', matcher: 'Bash', command: 'a', timeout: 5, source: 'f.json' },
      { event: 'Stop', matcher: undefined, command: 'b', timeout: undefined, source: 'f.json' },
    ]);
  });

  it('a file that breaks the shape says where; hooks of other types are left out and counted', () => {
    const notJson = parseHooks('{', 'f.json');
    assert.ok('problem' in notJson && notJson.problem.startsWith('not JSON'));
    const bad = parseHooks(JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command' }] }] } }), 'f');
    assert.ok('problem' in bad && /^hooks\.PreToolUse\.0/.test(bad.problem), JSON.stringify(bad));
    let skipped = 0;
    const mixed = JSON.stringify({
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'x' },
              { type: 'command', command: 'ok' },
            ],
          },
        ],
      },
    });
    const specs = parseHooks(mixed, 'f', (count) => (skipped += count));
    assert.ok(Array.isArray(specs) && specs.length === 1 && specs[0]?.command === 'ok');
    assert.equal(skipped, 1);
  });

  it("matches ours, Claude Code's names mapped to ours, lists, regular expressions and *", () => {
    assert.ok(matchesTool('Bash', shell));
    assert.ok(matchesTool(shell, shell));
    assert.ok(!matchesTool('Bash', patch));
    assert.ok(matchesTool('Edit|Write', patch));
    assert.ok(!matchesTool('Edit|Write', shell));
    assert.ok(matchesTool('Read', read));
    assert.ok(matchesTool('^B.*', shell), 'a regular expression is tried on the Claude Code name too');
    assert.ok(matchesTool('*', read) && matchesTool(undefined, read) && matchesTool('', read));
    assert.ok(!matchesTool('mcp__.*', shell) && matchesTool('mcp__.*', 'mcp__docs__search'));
    assert.ok(!matchesTool('(', shell), 'a bad expression matches nothing');
    // Backtracks for minutes on `exec_command` when run as it is; cut short, it names no tool.
    assert.ok(!matchesTool('(.*.*.*.*)*X', shell), 'an expression too slow to finish matches nothing');
  });

  it('reads exit 2 as a block with stderr, other exits and timeouts as notes, JSON and plain context', () => {
    assert.deepEqual(hookVerdict('PreToolUse', exited(2, '{"x":1}', 'no'), 'c', 60), {
      decision: 'deny',
      reason: 'no',
      notes: [],
    });
    assert.equal(hookVerdict('Stop', exited(2, '', 'go on'), 'c', 60).decision, 'block');
    assert.match(hookVerdict('Stop', exited(1, '', 'oops'), 'c', 60).notes[0] ?? '', /exit code 1 \(c\): oops/);
    assert.match(hookVerdict('Stop', { kind: 'timeout', stdout: '', stderr: '' }, 'c', 5).notes[0] ?? '', /5 s/);
    assert.equal(hookVerdict('UserPromptSubmit', exited(0, 'ctx\n'), 'c', 60).context, 'ctx');
    assert.equal(hookVerdict('PreToolUse', exited(0, 'ctx\n'), 'c', 60).context, undefined);
    const legacy = hookVerdict('PreToolUse', exited(0, '{"decision":"approve","reason":"fine"}'), 'c', 60);
    assert.equal(legacy.decision, 'allow');
    const stop = hookVerdict('SessionStart', exited(0, '{"continue":false,"stopReason":"halt"}'), 'c', 60);
    assert.equal(stop.stop, 'halt');
  });

  it('combines: deny over ask over allow, contexts joined', () => {
    const combined = combineVerdicts([
      { decision: 'allow', reason: 'a', notes: [] },
      { decision: 'deny', reason: 'd', context: 'one', notes: ['n'] },
      { decision: 'ask', reason: 'q', context: 'two', notes: [] },
    ]);
    assert.deepEqual(combined, { decision: 'deny', reason: 'd', context: 'one\n\ntwo', notes: ['n'] });
  });
});
