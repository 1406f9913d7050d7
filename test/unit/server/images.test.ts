import * as assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { loadScenarioFile } from '../../../src/server';
import { imageSize, imageTokens } from '../../../src/server/imageInput';
import { ECHO_SCENARIO, finalResponse, post } from './support/harness';
import { type Item, THINK, invalid, useStrictServer } from './support/strictFixtures';

// `input_image` on the bundled backend: taken wherever the API takes it (a message's content, a tool output's
// parts), counted by the API's documented rule from the image's own header, and a malformed data URL refused
// in the API's words over both transports.

/** CRC-32 as PNG chunks carry it (zlib.crc32 is newer than the Node 20 this project supports). */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real PNG of `width`×`height` grey pixels (rows filtered with "none", deflated). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's segments up to its frame header (APP0, then SOF0 with the size): all a size reader needs. */
function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

const dataUrl = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;
const image = (url: string, detail = 'auto'): Item => ({ type: 'input_image', image_url: url, detail });
const userWith = (...parts: Item[]): Item => ({
  role: 'user',
  content: [{ type: 'input_text', text: 'say hello' }, ...parts],
});

describe('bundled backend: input_image', () => {
  it('reads the size from PNG and JPEG headers', () => {
    assert.deepEqual(imageSize(png(3, 2)), { width: 3, height: 2 });
    assert.deepEqual(imageSize(jpegHeader(640, 480)), { width: 640, height: 480 });
    assert.equal(imageSize(Buffer.from('not an image')), undefined);
  });

  it('counts tokens as the API documents: 85 at low; 170 a 512-px tile + 85 after fitting 2048 and 768', () => {
    assert.equal(imageTokens({ width: 1024, height: 1024 }, 'high'), 765);
    assert.equal(imageTokens({ width: 2048, height: 4096 }, 'high'), 1105);
    assert.equal(imageTokens({ width: 2048, height: 4096 }, 'auto'), 1105);
    assert.equal(imageTokens({ width: 4096, height: 8192 }, 'low'), 85);
    assert.equal(imageTokens({ width: 100, height: 50 }, 'high'), 255, 'a small image is never scaled up');
    assert.equal(imageTokens(undefined, 'auto'), 255, 'an image of unknown size counts as one tile');
  });

  const { openWs, responses } = useStrictServer(() => [loadScenarioFile(ECHO_SCENARIO), THINK]);
  const inputTokens = async (body: Item): Promise<number> => {
    const reply = await post(responses(), { model: 'm', store: false, ...body });
    assert.equal(reply.status, 200, reply.text);
    return (JSON.parse(reply.text) as { usage: { input_tokens: number } }).usage.input_tokens;
  };

  it('takes an image in a user message, counted from its header (PNG and JPEG)', async () => {
    const small = await inputTokens({ input: [userWith(image(dataUrl(png(4, 4)), 'low'))] });
    const big = await inputTokens({ input: [userWith(image(dataUrl(png(2048, 4096))))] });
    assert.equal(big - small, 1105 - 85);
    const jpeg = await inputTokens({ input: [userWith(image(dataUrl(jpegHeader(1024, 1024), 'image/jpeg')))] });
    assert.equal(jpeg - small, 765 - 85);
  });

  it('takes an image in a function_call_output and a custom_tool_call_output, over HTTP and WebSocket', async () => {
    const shot = image(dataUrl(png(8, 8)));
    const input = [
      userWith(),
      { type: 'function_call', call_id: 'call_f', name: 'view_image', arguments: '{"path":"a.png"}' },
      { type: 'function_call_output', call_id: 'call_f', output: [shot] },
      { type: 'custom_tool_call', call_id: 'call_c', name: 'apply_patch', input: '' },
      { type: 'custom_tool_call_output', call_id: 'call_c', output: [{ type: 'input_text', text: 'ok' }, shot] },
    ];
    assert.ok((await inputTokens({ input })) > 2 * 255);
    const client = await openWs();
    assert.equal(finalResponse(await client.turn({ model: 'm', store: false, input })).status, 'completed');
  });

  const MALFORMED: { url: string; problem: string }[] = [
    { url: 'iVBORw0KGgo=', problem: "a value without the 'data:' prefix." },
    { url: 'data:image/png,iVBORw0KGgo=', problem: "a value without the ';base64' separator." },
    { url: 'data:image/bmp;base64,Qk0=', problem: "unsupported MIME type 'image/bmp'." },
    { url: 'data:image/png;base64,', problem: 'empty base64-encoded bytes.' },
    { url: 'data:image/png;base64,iVBOR w0K!', problem: 'an invalid base64-encoded value.' },
  ];
  const expected = (param: string, problem: string) =>
    invalid(
      'invalid_value',
      `Invalid '${param}'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got ${problem}`,
      param,
    );

  for (const { url, problem } of MALFORMED)
    it(`refuses a malformed data URL in the API's words: ${problem}`, async () => {
      const body = { model: 'm', store: false, input: [userWith(image(dataUrl(png(2, 2))), image(url))] };
      const error = expected('input[0].content[2].image_url', problem);
      const reply = await post(responses(), body);
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(JSON.parse(reply.text), { error });
      const client = await openWs();
      assert.deepEqual(await client.turn(body), [{ type: 'error', status: 400, error }]);
    });

  it("names a tool output's image by its place in the output", async () => {
    const reply = await post(responses(), {
      model: 'm',
      store: false,
      input: [
        userWith(),
        { type: 'function_call', call_id: 'call_f', name: 'view_image', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_f', output: [image('data:text/plain;base64,aGk=')] },
      ],
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(JSON.parse(reply.text), {
      error: expected('input[2].output[0].image_url', "unsupported MIME type 'text/plain'."),
    });
  });
});
