import * as assert from 'node:assert/strict';
import { ExitCode } from '../../../src/cli/cliIo';
import { execOptions } from '../../../src/cli/exec/execOptions';

// `loopwire exec --image FILE` with no words (issue 40, item 2): the panel sends an image alone, since the user
// reads the answer there and goes on; exec runs a task unattended, which may edit files and run commands, so
// an empty prompt beside --image (a "$PROMPT" left unset) is a usage error that says what to give, not a task.

function run(argv: string[]): { result: unknown; stderr: string } {
  let stderr = '';
  const result = execOptions(argv, {
    stdout: () => undefined,
    stderr: (text) => (stderr += text),
    readStdin: () => Promise.resolve(''),
  });
  return { result, stderr };
}

describe('cli: loopwire exec --image with no prompt', () => {
  it('is a usage error naming what to give, with or without --resume', () => {
    for (const argv of [
      ['--image', 'shot.png'],
      ['--image', 'shot.png', ''],
      ['--image', 'shot.png', '   '],
      ['--resume', 'session.jsonl', '--image', 'shot.png', ''],
      ['--file', 'notes.md', ''],
    ]) {
      const { result, stderr } = run(argv);
      assert.equal(result, ExitCode.usage, argv.join(' '));
      assert.match(stderr, /--image and --file attach to a prompt: say what to do with them, as the prompt/);
      assert.match(stderr, /usage: loopwire exec/);
    }
  });

  it('takes the image with words, and --resume with none and no image', () => {
    for (const argv of [
      ['--image', 'shot.png', 'What is wrong here?'],
      ['--resume', 'session.jsonl'],
    ]) {
      const { result, stderr } = run(argv);
      assert.equal(typeof result, 'object', `${argv.join(' ')}: ${stderr}`);
    }
  });
});
