import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import { type AnyInputItem, isContextMessage } from '../../../src/protocol';
import { useExecAgainstServer } from '../support/execAgainstServer';
import { repoRoot } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// `loopwire exec --image`: the built bin against the real server over a real socket, whose wire log shows the
// user's message as the model got it — the prompt, then an `input_image` per image, a PNG wider than 2,048 px
// scaled to fit, a small JPEG sent byte for byte.

interface Part {
  type: string;
  text?: string;
  image_url?: string;
}

/** The bytes and type a data URL holds. */
function fromDataUrl(url: string): { mime: string; bytes: Buffer } {
  const match = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/=]+)$/.exec(url);
  assert.ok(match, `a base64 data URL of a PNG or JPEG: ${url.slice(0, 40)}`);
  return { mime: match[1] as string, bytes: Buffer.from(match[2] as string, 'base64') };
}

describe('cli: loopwire exec --image attaches images to the prompt', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({}, { prefix: 'exec-images' });
  const run = useExecAgainstServer(temp);
  beforeEach(() => fs.cp(path.join(repoRoot, 'demo/workspace'), temp.path('app'), { recursive: true }));

  const exec = (args: string[]) =>
    run.exec(['--workspace', temp.path('app'), '--approve', 'read-only', ...args], temp.dir);
  const userMessages = async () =>
    (await run.requests()).flatMap((body) =>
      body.input.filter((item) => item.role === 'user' && !isContextMessage(item as AnyInputItem)),
    );

  it('sends a large PNG scaled to 2,048 px on its long side and a small JPEG as it is, after the prompt', async () => {
    const wide = await new Jimp({ width: 3000, height: 1200, color: 0x3366ccff }).getBuffer('image/png');
    const small = await new Jimp({ width: 64, height: 48, color: 0xcc3300ff }).getBuffer('image/jpeg');
    await fs.writeFile(temp.path('wide.png'), wide);
    await fs.writeFile(temp.path('small.jpg'), small);
    const result = await exec(['--image', 'wide.png', '--image', temp.path('small.jpg'), 'What is in these?']);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    const [message, ...others] = await userMessages();
    assert.equal(others.length, 0, 'the prompt is sent once: later turns chain from it');
    const content = (message as { content: Part[] }).content;
    assert.deepEqual(
      content.map((part) => part.type),
      ['input_text', 'input_image', 'input_image'],
    );
    assert.equal(content[0]?.text, 'What is in these?');
    const png = fromDataUrl(content[1]?.image_url ?? '');
    assert.equal(png.mime, 'image/png');
    const scaled = await Jimp.fromBuffer(png.bytes);
    assert.deepEqual([scaled.width, scaled.height], [2048, 819]);
    const jpeg = fromDataUrl(content[2]?.image_url ?? '');
    assert.equal(jpeg.mime, 'image/jpeg');
    assert.ok(jpeg.bytes.equals(small), 'an image within bounds is sent byte for byte');
  });

  it('refuses a file that is not a PNG or JPEG, or missing, before anything is sent', async () => {
    await fs.writeFile(temp.path('notes.txt'), 'not a picture\n');
    const text = await exec(['--image', 'notes.txt', 'Look.']);
    assert.equal(text.code, 2);
    assert.match(text.stderr, /^loopwire exec: --image notes\.txt: not a PNG or JPEG image$/m);
    const missing = await exec(['--image', 'nope.png', 'Look.']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^loopwire exec: --image nope\.png: .*nope\.png/m);
    const alone = await exec(['--image', 'notes.txt']);
    assert.equal(alone.code, 2);
    assert.deepEqual(await userMessages(), []);
  });

  it('says --image in its help', async () => {
    const help = await exec(['--help']);
    assert.match(help.stdout, /^ {2}--image FILE {11}attach a PNG or JPEG image to the prompt \(repeatable\)/m);
  });
});
