import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { approvalAsk, taskCommand } from '../../../src/extension/chat/approvals/approvalAsk';
import { BUILTIN_TOOLS } from '../../../src/tools';
import { defineTool, success } from '../../../src/tools/tool';

// What an approval card says before a call runs: the action in words and what it will run or change.

const request = (name: string, effect: 'write' | 'task', input: unknown) => ({
  callId: 'call_1',
  name,
  effect,
  input: JSON.stringify(input),
});

describe('approval cards: what Allow does, in words', () => {
  it('a task names its label and the command it runs', () => {
    assert.equal(taskCommand('npm run test: node --test'), 'node --test');
    assert.equal(taskCommand('npm run start (in packages/app): node .'), 'node .');
    assert.equal(taskCommand("echo building 'two words'"), "echo building 'two words'");
    assert.deepEqual(
      approvalAsk(request('run_task', 'task', { label: 'npm: test' }), 'npm: test', undefined, {
        label: 'npm: test',
        detail: 'npm run test: node --test',
      }),
      { action: 'Run task `npm: test` — `node --test`', detail: 'npm run test: node --test', effect: 'task' },
    );
  });

  it('a shell command shows the exact command line and where it runs', () => {
    assert.deepEqual(
      approvalAsk(request('exec_command', 'task', { cmd: 'rm -rf build', workdir: 'pkg' }), '', undefined, undefined),
      {
        action: 'Run command `rm -rf build`',
        detail: '$ rm -rf build\n(in pkg)',
        effect: 'task',
      },
    );
    assert.equal(
      approvalAsk(request('exec_command', 'task', { cmd: 'echo `date`' }), '', undefined, undefined).action,
      'Run command `` echo `date` ``',
    );
  });

  it('what a tool of the run says its approval must show comes first, whatever the tool', () => {
    const deploy = defineTool({
      name: 'deploy_site',
      description: 'Deploys.',
      args: z.object({ target: z.string() }),
      effect: 'task',
      approval: (input) => ({ action: 'Deploy to', object: input, detail: `deploy --to ${input}` }),
      run: () => Promise.resolve(success('deployed')),
    });
    const tools = BUILTIN_TOOLS.with([deploy]);
    assert.deepEqual(
      approvalAsk({ ...request('deploy_site', 'task', {}), input: 'prod' }, 'prod', undefined, undefined, tools),
      {
        action: 'Deploy to `prod`',
        detail: 'deploy --to prod',
        effect: 'task',
      },
    );
  });

  it('another tool that acts (an MCP server’s, the editor’s) shows its summary and arguments', () => {
    assert.deepEqual(
      approvalAsk(request('mcp__echo__touch', 'task', { path: 'a.txt' }), 'echo · touch: a.txt', undefined, undefined),
      { action: 'Run `echo · touch: a.txt`', detail: '{\n  "path": "a.txt"\n}', effect: 'task' },
    );
  });

  it('an edit names its file, or how many', () => {
    const file = (path: string) => ({ path, op: 'update' as const, hunks: [], pending: false });
    assert.deepEqual(approvalAsk(request('apply_patch', 'write', {}), 'a.ts', [file('src/a.ts')], undefined), {
      action: 'Apply edit to `src/a.ts`',
      detail: 'update src/a.ts',
      effect: 'write',
    });
    assert.equal(
      approvalAsk(request('apply_patch', 'write', {}), '', [file('a'), file('b')], undefined).action,
      'Apply edit to 2 files',
    );
  });
});
