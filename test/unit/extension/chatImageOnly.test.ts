import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import { Transcript } from '../../../src/agent';
import { listSessions } from '../../../src/extension/chat/history/sessionHistory';
import { transcriptEntries } from '../../../src/extension/chat/history/transcriptEntries';
import type { Attachment } from '../../../src/protocol/attachments';
import type { ToolEntry } from '../../../src/protocol/chatView';
import type { QueuedPrompt } from '../../../src/protocol/promptQueue';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { eventually } from '../support/eventually';
import { useChatBench } from './chatHarness';

// A prompt of an image alone (issue 40, item 2: a screenshot pasted, then Enter), on the host's side against
// the real server over a real socket: the request's user message holds the input_image part and nothing else
// (no empty input_text); the chat is titled in History by the image's name; the transcript alone shows it
// again as a bubble with the picture and no text; sent while a task runs, it is queued like any prompt, its
// chip without text, and runs in its turn. Edit and resend sends it again as it is, or with words added, in the
// fork; with its chip taken off, the words alone.

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+one\n*** End Patch\n';
const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'write',
      match: 'write a',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH }] },
        { output: [{ type: 'message', text: 'Wrote a.txt.' }] },
      ],
    },
    { name: 'any', match: '.*', steps: [{ output: [{ type: 'message', text: 'A red square.' }] }] },
  ],
};

type Image = Extract<Attachment, { kind: 'image' }>;

async function redPng(width: number, height: number): Promise<string> {
  const png = await new Jimp({ width, height, color: 0xff0000ff }).getBuffer('image/png');
  return `data:image/png;base64,${png.toString('base64')}`;
}

interface Body {
  input?: { role?: string; content?: unknown }[];
}

describe('chat panel host: a prompt of an image alone', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.md': 'remember\n' }, { logBodies: true });
  const ui = useChatBench(bench);

  it('the user message is the input_image part alone; History titles the chat by its name; the snapshot and the transcript show it again', async () => {
    const image: Image = { kind: 'image', name: 'image.png', dataUrl: await redPng(40, 20), width: 40, height: 20 };
    const chat = ui.controller();
    await chat.receive({ type: 'send', text: '', attachments: [image] });
    await eventually(() => chat.model.answerSince(0) === 'A red square.', { message: 'the model answered' });
    const prompt = chat.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(prompt?.kind === 'user' ? [prompt.text, prompt.attachments] : [], ['', [image]]);

    const bodies = requestsOf(await bench.wire()).map((line) => (line as { body?: Body }).body);
    const users = bodies.flatMap((body) => (body?.input ?? []).filter((item) => item.role === 'user'));
    const sent = users.find(
      (item) => Array.isArray(item.content) && JSON.stringify(item.content).includes('input_image'),
    );
    assert.deepEqual(sent?.content, [{ type: 'input_image', image_url: image.dataUrl, detail: 'auto' }]);

    const sessions = listSessions(path.join(path.dirname(bench.dir), 'sessions'));
    assert.deepEqual(
      sessions.map((session) => session.title),
      ['image.png'],
    );

    // After a reload (the snapshot): the bubble as it was sent, no text, the chip with its name and size.
    const again = ui.controller();
    await again.receive({ type: 'ready' });
    const restored = again.model.all.find((entry) => entry.kind === 'user');
    assert.deepEqual(restored?.kind === 'user' ? [restored.text, restored.attachments] : [], ['', [image]]);

    // From the transcript alone: a bubble with no text and the picture (its name was never sent).
    const file = chat.transcriptFile;
    assert.ok(file);
    const reopened = transcriptEntries(Transcript.load(file).items).filter((entry) => entry.kind === 'user');
    assert.deepEqual(
      reopened.map((entry) => (entry.kind === 'user' ? [entry.text, entry.attachments] : [])),
      [['', [{ kind: 'image', name: 'image', dataUrl: image.dataUrl }]]],
    );
  });

  it('Edit and resend: the image alone again as it is, then with words; its chip taken off, the words alone', async () => {
    const image: Image = { kind: 'image', name: 'image.png', dataUrl: await redPng(12, 12), width: 12, height: 12 };
    const chat = ui.controller();
    await chat.ask('', [image]);
    const prompts = () => chat.model.all.filter((entry) => entry.kind === 'user');
    const resend = async (message: { text: string; attachments: Attachment[] }) => {
      const id = prompts()[0]?.id ?? '';
      const before = chat.sessionId;
      await chat.receive({ type: 'resend', id, ...message });
      await eventually(() => chat.sessionId !== before && chat.model.answerSince(0) !== '' && !chat.busy, {
        message: 'the fork answered',
      });
      const [prompt, ...more] = prompts();
      assert.equal(more.length, 0, 'the fork holds the edited prompt alone');
      const items = Transcript.load(chat.transcriptFile ?? '').items as { role?: string; content?: unknown }[];
      return { prompt, sent: items.find((item) => item.role === 'user')?.content };
    };
    const imagePart = { type: 'input_image', image_url: image.dataUrl, detail: 'auto' };

    let { prompt, sent } = await resend({ text: '', attachments: [image] });
    assert.deepEqual(prompt?.kind === 'user' ? [prompt.text, prompt.attachments] : [], ['', [image]]);
    assert.deepEqual(sent, [imagePart], 'the image again, no empty text');

    ({ prompt, sent } = await resend({ text: 'What is this?', attachments: [image] }));
    assert.deepEqual(prompt?.kind === 'user' ? [prompt.text, prompt.attachments] : [], ['What is this?', [image]]);
    assert.deepEqual(sent, [{ type: 'input_text', text: 'What is this?' }, imagePart]);

    ({ prompt, sent } = await resend({ text: 'Describe a square', attachments: [] }));
    assert.deepEqual(prompt?.kind === 'user' ? [prompt.text, prompt.attachments] : [], [
      'Describe a square',
      undefined,
    ]);
    assert.equal(JSON.stringify(sent).includes('input_image'), false, 'the image was taken off');
  });

  it('an image with a file chip and no text: no empty input_text, both read back as chips', async () => {
    const image: Image = { kind: 'image', name: 'shot.png', dataUrl: await redPng(8, 8) };
    const chat = ui.controller();
    await chat.ask('', [{ kind: 'file', path: 'notes.md' }, image]);
    const file = chat.transcriptFile;
    assert.ok(file);
    const items = Transcript.load(file).items;
    const message = items.find(
      (item) => (item as { role?: string }).role === 'user' && JSON.stringify(item).includes('input_image'),
    ) as { content: { type: string }[] } | undefined;
    assert.deepEqual(
      message?.content.map((part) => part.type),
      ['input_text', 'input_image'],
    );
    const reopened = transcriptEntries(items).find((entry) => entry.kind === 'user');
    assert.deepEqual(reopened?.kind === 'user' ? [reopened.text, reopened.attachments?.map((a) => a.kind)] : [], [
      '',
      ['file', 'image'],
    ]);
    assert.deepEqual(
      listSessions(path.join(path.dirname(bench.dir), 'sessions')).map((session) => session.title),
      ['shot.png'],
    );
  });

  it('History titles a prompt of text and a large image by its text, though the picture’s line does not fit in the head it reads', async () => {
    // 300×300 pixels of noise: a PNG of some 80 kB, its data URL past the 64 KiB History reads.
    const noise = new Jimp({ width: 300, height: 300 });
    noise.bitmap.data.forEach((_, i) => (noise.bitmap.data[i] = (i * 2654435761) >>> 24));
    const dataUrl = `data:image/png;base64,${(await noise.getBuffer('image/png')).toString('base64')}`;
    assert.ok(dataUrl.length > 64 * 1024, `${dataUrl.length} characters`);
    const chat = ui.controller();
    await chat.ask('What is wrong in this screenshot?\nIt is from the cart page.', [
      { kind: 'image', name: 'noise.png', dataUrl },
    ]);
    assert.deepEqual(
      listSessions(path.join(path.dirname(bench.dir), 'sessions')).map((session) => session.title),
      ['What is wrong in this screenshot?'],
    );
  });

  it('sent while a task runs, it is queued (its chip has no text, its image) and runs in its turn', async () => {
    ui.mode = 'ask';
    const image: Image = { kind: 'image', name: 'image.png', dataUrl: await redPng(8, 8) };
    const chat = ui.controller();
    const first = chat.ask('write a');
    await eventually(() => chat.model.all.some((e) => e.kind === 'tool' && e.status === 'approval'), {
      message: 'apply_patch waits for Apply',
    });
    const patch = chat.model.all.find((e): e is ToolEntry => e.kind === 'tool') as ToolEntry;
    const queued = chat.receive({ type: 'send', text: '', attachments: [image] });
    const chips = (): QueuedPrompt[] => ui.sent.findLast((m) => m.type === 'queue')?.items ?? [];
    await eventually(() => chips().length === 1);
    assert.deepEqual(
      chips().map(({ text, attachments }) => ({ text, attachments })),
      [{ text: '', attachments: [image] }],
    );
    // An edit that leaves it without words (the page sends none) changes nothing.
    await chat.receive({ type: 'queue', action: 'edit', id: (chips()[0] as QueuedPrompt).id });
    await chat.receive({ type: 'approval', callId: patch.id, allow: true });
    await first;
    await queued;
    await eventually(() => chat.model.answerSince(0).includes('A red square.'), { message: 'the image ran' });
    const users = chat.model.all.flatMap((e) => (e.kind === 'user' ? [[e.text, e.attachments?.length ?? 0]] : []));
    assert.deepEqual(users, [
      ['write a', 0],
      ['', 1],
    ]);
    assert.deepEqual(chips(), []);
  });
});
