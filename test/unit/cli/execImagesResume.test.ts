import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import { type AnyInputItem, isContextMessage } from '../../../src/protocol';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// An image kept in the transcript (issue 40, item 2): `loopwire exec --image` then `--resume` of its session,
// the built bin against the real server. The resumed run is a new session, so its request carries the whole
// conversation again: the image once, in its prompt's message, and in no other.

describe('cli: an image in a session continued with --resume', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-images-resume' });
  const run = useExecAgainstServer(temp);
  beforeEach(() => fs.cp(path.join(repoRoot, 'demo/workspace'), temp.path('app'), { recursive: true }));

  const exec = (args: string[]) =>
    run.exec(['--workspace', temp.path('app'), '--approve', 'read-only', ...args], temp.dir);

  it('the resumed request holds the image once, in the first prompt’s message', async () => {
    await fs.writeFile(
      temp.path('wide.png'),
      await new Jimp({ width: 2500, height: 600, color: 0x3366ccff }).getBuffer('image/png'),
    );
    const first = await exec(['--image', 'wide.png', 'What is in it?']);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    const kept = /session kept in (.+?); continue it with --resume/.exec(first.stderr)?.[1];
    assert.ok(kept, first.stderr);
    const second = await exec(['--resume', kept, 'And now?']);
    assert.equal(second.code, 0, second.stderr + second.stdout);

    const requests = await run.requests();
    const prompts = (input: readonly { role?: string; content?: unknown }[]) =>
      input.filter((item) => item.role === 'user' && !isContextMessage(item as AnyInputItem));
    const resumed = requests.find((body) => JSON.stringify(body.input).includes('And now?'));
    assert.ok(resumed);
    const messages = prompts(resumed.input);
    const images = (content: unknown) =>
      Array.isArray(content) ? content.filter((part: { type?: string }) => part.type === 'input_image').length : 0;
    assert.deepEqual(
      messages.map((item) => images(item.content)),
      [1, 0],
      'the image once, with its prompt',
    );
  });
});
