import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type AnyInputItem, isContextMessage } from '../../../src/protocol';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec --file`: the built bin against the real server over a real socket, whose wire log (with
// bodies) shows the user's message as the model got it — the prompt, then a labelled part per file.

describe('cli: loopwire exec --file attaches files to the prompt', function () {
  this.timeout(30_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-files' });
  const run = useExecAgainstServer(temp);
  beforeEach(() => fs.cp(path.join(repoRoot, 'demo/workspace'), temp.path('app'), { recursive: true }));

  const exec = (args: string[], cwd: string) =>
    run.exec(['--workspace', temp.path('app'), '--approve', 'read-only', ...args], cwd);

  /** The user's messages as sent, the context items (the environment's, AGENTS.md) left out. */
  const userMessages = async () =>
    (await run.requests()).flatMap((body) =>
      body.input.filter((item) => item.role === 'user' && !isContextMessage(item as AnyInputItem)),
    );

  it('sends each file (a path from the current directory) and folder as a labelled part after the prompt', async () => {
    await temp.write('app/notes/big.txt', `${'y'.repeat(99)}\n`.repeat(400));
    const result = await exec(
      ['--file', 'config/shipping.json', '--file', 'notes', '--file', temp.path('app/notes/big.txt'), 'Explain this.'],
      temp.path('app'),
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const shipping = await temp.read('app/config/shipping.json');
    const [message, ...others] = await userMessages();
    assert.equal(others.length, 0, 'the prompt is sent once: later turns chain from it');
    const content = (message as { content: { type: string; text: string }[] }).content;
    assert.deepEqual(content.slice(0, 3), [
      { type: 'input_text', text: 'Explain this.' },
      {
        type: 'input_text',
        text: `<attachment kind="file" path="config/shipping.json">\n${shipping.replace(/\n$/, '')}\n</attachment>`,
      },
      {
        type: 'input_text',
        text: '<attachment kind="file" path="notes">\nThe folder\'s files (1):\nnotes/big.txt\n</attachment>',
      },
    ]);
    assert.equal(content.length, 4);
    assert.match(
      content[3]?.text ?? '',
      /^<attachment kind="file" path="notes\/big\.txt">\ny{99}\n[^]*\n… cut at 31\.9 KiB of 39\.1 KiB: an attachment is capped at 32 KiB; read the rest with the tools if needed\n<\/attachment>$/,
    );
  });

  it('refuses a file outside the workspace, or missing, before anything is sent', async () => {
    await temp.write('secret.txt', 'not yours\n');
    const outside = await exec(['--file', '../secret.txt', 'Explain this.'], temp.path('app'));
    assert.equal(outside.code, 2);
    assert.match(
      outside.stderr,
      /^loopwire exec: --file \.\.\/secret\.txt: .*secret\.txt is outside the workspace \(.*app\); only files in the workspace can be attached$/m,
    );
    const missing = await exec(['--file', 'nope.js', 'Explain this.'], temp.path('app'));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^loopwire exec: --file nope\.js: .*nope\.js/m);
    assert.deepEqual(await userMessages(), []);
  });

  it('says --file in its help', async () => {
    const help = await exec(['--help'], temp.dir);
    assert.match(
      help.stdout,
      /^ {2}--file PATH {12}attach a file's text, or a folder's list of files, to the prompt \(repeatable\);$/m,
    );
  });
});
