import * as assert from 'node:assert/strict';
import { Jimp } from 'jimp';
import { ViewMessage } from '../../../src/protocol/chatView';
import { SendPrompt } from '../../../src/protocol/sendPrompt';

// The page's `send`, widened for a prompt of images alone (issue 40, item 2): text, or at least one image
// chip; never neither (an empty composer, or chips of files alone, is no prompt). It is ViewMessage's `send`,
// and its type is the schema's inferred one.

/** Compiles only when `A` and `B` are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const holds = <T extends true>(proof: T): T => proof;

describe('protocol: the page’s send', () => {
  let dataUrl = '';
  before(async () => {
    const png = await new Jimp({ width: 4, height: 4, color: 0x00ff00ff }).getBuffer('image/png');
    dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  });
  const image = () => ({ kind: 'image' as const, name: 'image.png', dataUrl });

  it('is ViewMessage’s send, its type inferred', () => {
    holds<Same<SendPrompt, Extract<ViewMessage, { type: 'send' }>>>(true);
    holds<Same<SendPrompt['text'], string>>(true);
  });

  it('takes text, text with chips, and images with no text', () => {
    for (const message of [
      { type: 'send', text: 'Fix it' },
      { type: 'send', text: 'Fix it', attachments: [{ kind: 'file', path: 'a.js' }] },
      { type: 'send', text: '', attachments: [image()] },
      { type: 'send', text: '', attachments: [image(), { ...image(), name: 'two.png' }] },
      { type: 'send', text: '', attachments: [{ kind: 'problems' }, image()] },
    ]) {
      assert.deepEqual(SendPrompt.parse(message), message);
      assert.deepEqual(ViewMessage.parse(message), message);
    }
  });

  it('refuses a prompt of neither text nor image, and an image that is no PNG or JPEG data URL', () => {
    for (const message of [
      { type: 'send', text: '' },
      { type: 'send', text: '', attachments: [] },
      { type: 'send', text: '', attachments: [{ kind: 'file', path: 'a.js' }] },
      { type: 'send', text: '', attachments: [{ ...image(), dataUrl: 'data:image/gif;base64,R0lGOD==' }] },
      { type: 'send', text: 'x'.repeat(100_001) },
    ]) {
      assert.equal(ViewMessage.safeParse(message).success, false, JSON.stringify(message).slice(0, 80));
    }
    const issue = ViewMessage.safeParse({ type: 'send', text: '' });
    assert.equal(issue.error?.issues[0]?.message, 'a prompt has text or an image');
  });
});
