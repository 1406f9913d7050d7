import { type Refusal, refusals } from './apiErrors';
import type { AnyInputItem } from '../protocol';

// `input_image` parts as the API takes them (docs/backend.md, "Images"): where they may stand, what a data URL
// must look like, and what an image costs in tokens. The server never looks at pixels, only the header.

/** The image types the API takes in a data URL. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export interface ImageSize {
  width: number;
  height: number;
}

/** An `input_image` part met in `input`, with the path the API names it by. */
interface ImagePart {
  part: Record<string, unknown>;
  /** `input[i].content[j]` or `input[i].output[j]`. */
  path: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/**
 * The `input_image` parts of one item, where the API takes them: a message's content and a tool output's
 * parts (`function_call_output` and `custom_tool_call_output`).
 */
function imageParts(item: AnyInputItem, at: string): ImagePart[] {
  const fields = item as Record<string, unknown>;
  const type = fields.type;
  const key =
    type === undefined || type === 'message'
      ? 'content'
      : type === 'function_call_output' || type === 'custom_tool_call_output'
        ? 'output'
        : undefined;
  const parts = key === undefined ? undefined : fields[key];
  if (!Array.isArray(parts)) return [];
  const found: ImagePart[] = [];
  parts.forEach((value: unknown, index) => {
    const part = record(value);
    if (part?.type === 'input_image') found.push({ part, path: `${at}.${key}[${index}]` });
  });
  return found;
}

/** Why a data URL is malformed, in the API's words (the end of its sentence), or undefined when it is fine. */
export function dataUrlProblem(url: string): string | undefined {
  if (/^https?:\/\//i.test(url)) return undefined;
  if (!url.startsWith('data:')) return "a value without the 'data:' prefix.";
  const comma = url.indexOf(',');
  const meta = comma < 0 ? url.slice(5) : url.slice(5, comma);
  if (!meta.endsWith(';base64')) return "a value without the ';base64' separator.";
  const mime = meta.slice(0, -';base64'.length).split(';')[0]?.toLowerCase() ?? '';
  if (!IMAGE_TYPES.has(mime)) return `unsupported MIME type '${mime}'.`;
  const payload = url.slice(comma + 1);
  if (payload.length === 0) return 'empty base64-encoded bytes.';
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return 'an invalid base64-encoded value.';
  return undefined;
}

/** The first `input_image` in `input` whose data URL the API would refuse, as the API refuses it. */
export function checkImages(input: readonly AnyInputItem[]): Refusal | undefined {
  for (const [index, item] of input.entries())
    for (const { part, path } of imageParts(item, `input[${index}]`)) {
      const url = part.image_url;
      if (typeof url !== 'string') continue;
      const problem = dataUrlProblem(url);
      if (problem) return refusals.invalidImageUrl(`${path}.image_url`, problem);
    }
  return undefined;
}

/** Width and height from a PNG, JPEG, GIF or WebP header; undefined for anything else. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length >= 24 && data.readUInt32BE(0) === 0x89504e47 && data.toString('latin1', 12, 16) === 'IHDR')
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  if (data.length >= 10 && data.toString('latin1', 0, 3) === 'GIF')
    return { width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
  if (data.length >= 30 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return webpSize(data);
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) return jpegSize(data);
  return undefined;
}

/** A JPEG's size is in its first start-of-frame segment: walk the segments to it. */
function jpegSize(data: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 9 < data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1] as number;
    // Fill bytes, and markers without a length (RSTn, SOI, TEM).
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return undefined;
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) each store the size their own way. */
function webpSize(data: Buffer): ImageSize | undefined {
  const chunk = data.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  return undefined;
}

/** What a low-detail image costs, and every image as its base. */
const BASE_TOKENS = 85;
const TILE_TOKENS = 170;

/**
 * The API's documented cost of an image: 85 tokens at `detail: low`; otherwise (high, auto) the image is
 * scaled to fit 2048×2048, then its shortest side to 768 (only ever down), and each 512-px tile costs 170 on
 * top of the 85. An image whose size is unknown (a web URL, a file id, a header this server cannot read) is
 * counted as one tile.
 */
export function imageTokens(size: ImageSize | undefined, detail: unknown): number {
  if (detail === 'low') return BASE_TOKENS;
  if (!size || size.width <= 0 || size.height <= 0) return BASE_TOKENS + TILE_TOKENS;
  let { width, height } = size;
  const fit = Math.min(1, 2048 / Math.max(width, height));
  width *= fit;
  height *= fit;
  const shortest = Math.min(1, 768 / Math.min(width, height));
  width *= shortest;
  height *= shortest;
  return BASE_TOKENS + TILE_TOKENS * Math.ceil(width / 512) * Math.ceil(height / 512);
}

/** The size of the image a data URL holds; undefined for a web URL, a file id or an unreadable header. */
function dataUrlSize(url: unknown): ImageSize | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  // The header is near the start: PNG's in 24 bytes, JPEG's after its EXIF (which may run to 64 KiB).
  const head = url.slice(comma + 1, comma + 1 + 4 * 1024 * 32);
  return imageSize(Buffer.from(head.slice(0, head.length - (head.length % 4)), 'base64'));
}

/** The tokens of every `input_image` in one item, and a key for each image so that the cache tells them apart. */
export function itemImages(item: AnyInputItem): { tokens: number; key: string } {
  let tokens = 0;
  let key = '';
  for (const { part } of imageParts(item, '')) {
    tokens += imageTokens(dataUrlSize(part.image_url), part.detail);
    key += `\u0000${String(part.image_url ?? part.file_id)}:${String(part.detail)}`;
  }
  return { tokens, key };
}
