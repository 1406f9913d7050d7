import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { execOnTerminal } from '../support/execOnTerminal';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec "/name"` on a terminal: a prompt file's `tools` (and `model`) hold for its prompt alone. The
// prompt queued after it with Tab goes with every tool: its patch is applied, where a run narrowed to the
// prompt file's tools (as before) answered "There is no tool 'apply_patch'". The built bin on a real
// pseudo-terminal (util-linux's `script`), on the embedded backend.

const PATCH = '*** Begin Patch\n*** Add File: made-after.txt\n+made by the queued prompt\n*** End Patch\n';
const SCENARIOS = {
  scenarios: [
    {
      name: 'check',
      match: '^Run the slow check',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'sleep 1' } }] },
        { output: [{ type: 'message', text: 'slow check done' }] },
      ],
    },
    {
      name: 'write',
      match: '^write the file',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'file written' }] },
      ],
    },
  ],
};
const PROMPT_FILE = ['---', 'description: A slow check', 'tools: [runCommands]', '---', 'Run the slow check.', ''];

describe("cli: loopwire exec, a prompt file's tools hold for its prompt alone", function () {
  this.timeout(60_000);
  const temp = useTempWorkspace(
    {
      'scenarios.json': JSON.stringify(SCENARIOS),
      'work/README.md': '# prompt turn\n',
      'work/.github/prompts/check.prompt.md': PROMPT_FILE.join('\n'),
    },
    { prefix: 'exec-prompt-turn' },
  );

  it('the prompt queued after /check goes with every tool', async () => {
    const args = ['--approve', 'all', '--scenario', temp.path('scenarios.json'), '--sessions-dir'];
    args.push(temp.path('sessions'), '--workspace', temp.path('work'), '/check');
    const result = await execOnTerminal(
      args,
      [{ when: /Tab queues it as the next prompt/, then: 'write the file\t' }],
      temp.dir,
    );
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.stdout, /slow check done[^]*› next prompt: write the file[^]*file written/);
    assert.doesNotMatch(result.stdout, /There is no tool/);
    assert.equal(fs.readFileSync(temp.path('work/made-after.txt'), 'utf8'), 'made by the queued prompt\n');
  });
});
