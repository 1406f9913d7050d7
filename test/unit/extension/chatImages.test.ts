import * as assert from 'node:assert/strict';
import { Jimp } from 'jimp';
import { Transcript } from '../../../src/agent';
import { imageOfPart, promptParts } from '../../../src/agent/conversation/promptParts';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import { Attachment, attachmentLabel, sameAttachment } from '../../../src/protocol/attachments';
import type { ScenarioFile } from '../../../src/server';
import { NodeWorkspace } from '../../../src/workspace/node/nodeWorkspace';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// An image the panel's composer sends (issue 40, item 2), on the host's side against the real server over a
// real socket: it goes as an `input_image` part of the prompt's message, in its chip's place; the next turn,
// chained on previous_response_id, does not send it again; the entry keeps it after a reload (the snapshot),
// whose next prompt sends the whole conversation (a new session's) with the image once in it; and from the
// transcript alone.

const scenario: ScenarioFile = {
  scenarios: [{ name: 'any', match: '.*', steps: [{ output: [{ type: 'message', text: 'A red square.' }] }] }],
};

type Image = Extract<Attachment, { kind: 'image' }>;

async function redPng(width: number, height: number): Promise<string> {
  const png = await new Jimp({ width, height, color: 0xff0000ff }).getBuffer('image/png');
  return `data:image/png;base64,${png.toString('base64')}`;
}

interface Body {
  input?: { role?: string; content?: unknown }[];
  previous_response_id?: string;
}

const imagesIn = (body: Body | undefined) =>
  (body?.input ?? []).flatMap((item) =>
    Array.isArray(item.content)
      ? (item.content as { type?: string }[]).filter((part) => part.type === 'input_image')
      : [],
  );

describe('chat panel host: images in a prompt', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'src/cart.js': 'one\ntwo\n' }, { logBodies: true });
  const ui = useChatBench(bench);

  it('the image is an input_image in its chip’s place, not sent again while chained, kept after a reload and sent once in the whole conversation then', async () => {
    const image: Image = { kind: 'image', name: 'red.png', dataUrl: await redPng(40, 20), width: 40, height: 20 };
    const attachments: Attachment[] = [image, { kind: 'file', path: 'src/cart.js' }];
    const chat = ui.controller();
    await chat.receive({ type: 'send', text: 'What is in it?', attachments });
    await chat.ask('And now?');
    // After a reload (the snapshot): the chip as it was sent, its name and size.
    const again = ui.controller();
    await again.receive({ type: 'ready' });
    const restored = again.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(restored?.kind === 'user' ? restored.attachments : undefined, attachments);
    assert.equal((await again.ask('Once more?')).status, 'completed');

    const bodies = requestsOf(await bench.wire())
      .map((line) => (line as { body?: Body }).body)
      .filter((body) => body?.input?.some((item) => item.role === 'user'));
    const [first, second] = bodies;
    const prompt = first?.input?.find((item) => item.role === 'user' && Array.isArray(item.content));
    assert.deepEqual(prompt?.content, [
      { type: 'input_text', text: 'What is in it?' },
      { type: 'input_image', image_url: image.dataUrl, detail: 'auto' },
      { type: 'input_text', text: '<attachment kind="file" path="src/cart.js">\none\ntwo\n</attachment>' },
    ]);
    assert.ok(second?.previous_response_id, 'the second turn chains');
    assert.deepEqual(imagesIn(second), [], 'chained, the image is not sent again');
    // The reloaded window's new session chains on its own warm-up: the next prompt's request carries the
    // whole conversation, the image once in it.
    const texts = (body: Body | undefined) => JSON.stringify(body?.input ?? []);
    const whole = bodies.find((body) => texts(body).includes('Once more?'));
    assert.ok(texts(whole).includes('What is in it?'), 'the whole conversation');
    assert.equal(imagesIn(whole).length, 1, 'the whole conversation holds the image once');

    // From the transcript alone: the picture, without the name the model was never sent.
    const file = chat.transcriptFile;
    assert.ok(file);
    const reopened = transcriptEntries(Transcript.load(file).items).find((entry) => entry.kind === 'user');
    assert.deepEqual(reopened?.kind === 'user' ? [reopened.text, reopened.attachments] : [], [
      'What is in it?',
      [{ kind: 'image', name: 'image', dataUrl: image.dataUrl }, attachments[1]],
    ]);
  });

  it('a drop from the explorer: the image files the window read go to the page, the reasons for the others said', async () => {
    const dataUrl = await redPng(8, 8);
    ui.chatContext = {
      find: () => Promise.resolve([]),
      selection: () => 'none',
      fromUris: (uris) =>
        Promise.resolve({
          attachments: [{ kind: 'file', path: 'src/cart.js' }],
          refused: [],
          images: uris.filter((uri) => uri.endsWith('.png')).map((uri) => ({ name: uri.slice(-7), dataUrl })),
          notes: ['Not attached: huge.jpg is 25.0 MB; an image of at most 20 MB can be.'],
        }),
      sources: () => ({}),
    };
    const chat = ui.controller();
    await chat.receive({ type: 'ready' });
    await chat.receive({
      type: 'attachUris',
      uris: ['file:///ws/src/cart.js', 'file:///ws/red.png', 'file:///ws/huge.jpg'],
    });
    await eventually(() => ui.sent.some((message) => message.type === 'imageFiles'), { message: 'the images sent' });
    assert.deepEqual(
      ui.sent.find((message) => message.type === 'imageFiles'),
      { type: 'imageFiles', files: [{ name: 'red.png', dataUrl }] },
    );
    assert.deepEqual(
      ui.sent.find((message) => message.type === 'attach'),
      { type: 'attach', attachments: [{ kind: 'file', path: 'src/cart.js' }] },
    );
    assert.ok(
      chat.model.all.some((entry) => entry.kind === 'notice' && entry.text.includes('huge.jpg is 25.0 MB')),
      'the reason is said',
    );
  });

  it('promptParts keeps the chips’ order; imageOfPart reads back PNG and JPEG data URLs only', async () => {
    const workspace = await NodeWorkspace.open(bench.dir);
    const dataUrl = await redPng(2, 2);
    const parts = await promptParts(
      [{ kind: 'file', path: 'src/cart.js' }, { kind: 'image', name: 'a.png', dataUrl }, { kind: 'terminal' }],
      { workspace },
    );
    assert.deepEqual(
      parts.map((part) => part.type),
      ['input_text', 'input_image', 'input_text'],
    );
    assert.deepEqual(imageOfPart({ type: 'input_image', image_url: dataUrl }), {
      kind: 'image',
      name: 'image',
      dataUrl,
    });
    assert.equal(imageOfPart({ type: 'input_image', image_url: 'https://example.com/a.png' }), undefined);
    assert.equal(imageOfPart({ type: 'input_image', image_url: 'data:image/gif;base64,R0lGODlh' }), undefined);
    assert.equal(imageOfPart({ type: 'input_text', image_url: dataUrl }), undefined);
  });

  it('the image chip’s schema takes a PNG or JPEG data URL within the bounds, and nothing else', async () => {
    const dataUrl = await redPng(2, 2);
    const ok = (value: unknown) => Attachment.safeParse(value).success;
    assert.ok(ok({ kind: 'image', name: 'a.png', dataUrl, width: 2048, height: 1 }));
    assert.ok(ok({ kind: 'image', name: 'a.jpg', dataUrl: 'data:image/jpeg;base64,/9j/4AAQ' }));
    assert.ok(!ok({ kind: 'image', name: 'a.png', dataUrl, width: 2049, height: 1 }), 'over 2048 px');
    assert.ok(!ok({ kind: 'image', name: 'a.gif', dataUrl: 'data:image/gif;base64,R0lGODlh' }), 'a GIF');
    assert.ok(!ok({ kind: 'image', name: 'a.png', dataUrl: 'data:image/png;base64,' }), 'no bytes');
    assert.ok(!ok({ kind: 'image', name: 'a.png', dataUrl: 'data:image/png;base64,abc' }), 'not base64');
    assert.ok(!ok({ kind: 'image', name: 'a.png', dataUrl: 'https://example.com/a.png' }), 'a web URL');
    assert.ok(!ok({ kind: 'image', name: '', dataUrl }), 'no name');
    const oversized = `data:image/png;base64,${'A'.repeat(14 * 1024 * 1024)}`;
    assert.ok(!ok({ kind: 'image', name: 'a.png', dataUrl: oversized }), 'over 10 MiB');

    const a: Attachment = { kind: 'image', name: 'pasted image', dataUrl, width: 2, height: 2 };
    assert.equal(attachmentLabel(a), 'pasted image (2×2)');
    assert.ok(sameAttachment(a, { ...a, name: 'other' }), 'the same pixels');
    assert.ok(!sameAttachment(a, { ...a, dataUrl: await redPng(3, 3) }), 'two pastes of one name');
    assert.ok(!sameAttachment(a, { kind: 'file', path: 'pasted image (2×2)' }));
  });
});
