import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Jimp } from 'jimp';
import { type LoopwireServer, type ScenarioFile, startServer } from '../../../src/server';
import { type ProcessResult, repoRoot, runProcess } from '../support/runProcess';
import { useTempWorkspace } from '../support/tempWorkspace';

// view_image in `loopwire exec`: the built bin against the real server, whose scripted model calls
// view_image on a screenshot in the workspace; the wire log shows the call's output as the model got it —
// a text part, then the picture as an input_image (a PNG wider than 2,048 px scaled to fit), which the
// server accepts and counts. Offered to a model that takes images (gpt-5.5), not to one that does not.

const TOKEN = 'sk-view-image-test';
const LOOK: ScenarioFile['scenarios'][number] = {
  name: 'look',
  match: 'Look at the screenshot.',
  steps: [
    { output: [{ type: 'function_call', name: 'view_image', arguments: { path: 'shots/wide.png' } }] },
    { output: [{ type: 'message', text: 'A blue rectangle.' }] },
  ],
};

interface Logged {
  type: string;
  body?: { tools?: { name?: string }[]; input: Record<string, unknown>[] };
}

describe('cli: view_image lets the model look at an image in the workspace', function () {
  this.timeout(60_000);
  const temp = useTempWorkspace({}, { prefix: 'view-image' });
  let server: LoopwireServer;
  beforeEach(async () => {
    server = await startServer({
      token: TOKEN,
      scenarios: [{ scenarios: [LOOK] }],
      logFile: temp.path('wire.jsonl'),
      logBodies: true,
    });
    await fs.mkdir(temp.path('app/shots'), { recursive: true });
    const wide = await new Jimp({ width: 2600, height: 1000, color: 0x3366ccff }).getBuffer('image/png');
    await fs.writeFile(temp.path('app/shots/wide.png'), wide);
  });
  afterEach(() => server.close());

  const exec = (model: string): Promise<ProcessResult> =>
    runProcess(
      process.execPath,
      [
        path.join(repoRoot, 'dist/cli/loopwire.js'),
        'exec',
        ...['--sessions-dir', temp.path('sessions'), '--endpoint', server.url, '--model', model],
        ...['--workspace', temp.path('app'), '--approve', 'read-only', 'Look at the screenshot.'],
      ],
      '',
      { ...process.env, OPENAI_API_KEY: TOKEN },
    );
  const bodies = async () => {
    await server.close();
    return (await fs.readFile(temp.path('wire.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Logged)
      .filter((line) => line.type === 'response.create' && line.body)
      .map((line) => line.body as NonNullable<Logged['body']>);
  };

  it('answers the call with the picture as an input_image part, scaled to fit 2,048 px', async () => {
    const result = await exec('gpt-5.5');
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /A blue rectangle\./);
    const sent = await bodies();
    assert.ok(
      sent[0]?.tools?.some((tool) => tool.name === 'view_image'),
      'offered to a model that takes images',
    );
    const output = sent.flatMap((body) => body.input).find((item) => item.type === 'function_call_output');
    const parts = output?.output as { type: string; text?: string; image_url?: string }[];
    assert.deepEqual(
      parts.map((part) => part.type),
      ['input_text', 'input_image'],
    );
    assert.match(parts[0]?.text ?? '', /^Image shots\/wide\.png \(\d+ bytes\), attached below\.$/);
    const png = /^data:image\/png;base64,(.+)$/.exec(parts[1]?.image_url ?? '');
    assert.ok(png, 'a PNG data URL');
    const seen = await Jimp.fromBuffer(Buffer.from(png[1] as string, 'base64'));
    assert.deepEqual([seen.width, seen.height], [2048, 788]);
  });

  it('is not offered to a model the catalogue says takes no images', async () => {
    await exec('gpt-oss-120b');
    const sent = await bodies();
    assert.ok(sent.length > 0);
    assert.ok(!sent[0]?.tools?.some((tool) => tool.name === 'view_image'));
  });
});
