import { Jimp } from 'jimp';
import { IMAGE_MAX_SIDE, type InputImage } from '../protocol';

// An image as the model is given it: PNG or JPEG, at most IMAGE_MAX_SIDE px on its long side, in a `data:` URL
// (the API's `input_image`). Larger images cost tokens the model cannot use (the API scales them to fit 2048
// anyway) and make every resent request heavier. jimp decodes and scales: pure JavaScript, so it runs
// offline on every platform the extension and the CLI do, and bundles with esbuild.

export { IMAGE_MAX_SIDE };

export type ImageMime = 'image/png' | 'image/jpeg';

/** Why an image cannot be sent: not PNG or JPEG, or bytes that do not decode. */
export class ImageError extends Error {}

/** The type of `bytes` by its signature, the only two this takes; undefined for anything else. */
export function imageMime(bytes: Uint8Array): ImageMime | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** A PNG or JPEG scaled (never up) to fit IMAGE_MAX_SIDE, in its own type; within bounds, the bytes as they are. */
export async function scaledImage(bytes: Uint8Array): Promise<{ mime: ImageMime; bytes: Uint8Array }> {
  const mime = imageMime(bytes);
  if (!mime) throw new ImageError('not a PNG or JPEG image');
  let image;
  try {
    image = await Jimp.fromBuffer(Buffer.from(bytes));
  } catch (error) {
    throw new ImageError(`the image does not decode (${error instanceof Error ? error.message : String(error)})`);
  }
  if (Math.max(image.width, image.height) <= IMAGE_MAX_SIDE) return { mime, bytes };
  image.scaleToFit({ w: IMAGE_MAX_SIDE, h: IMAGE_MAX_SIDE });
  const scaled = mime === 'image/png' ? await image.getBuffer(mime) : await image.getBuffer(mime, { quality: 85 });
  return { mime, bytes: scaled };
}

/** `bytes` as an `input_image` part: scaled to fit, as a base64 data URL. */
export async function imagePart(bytes: Uint8Array): Promise<InputImage> {
  const scaled = await scaledImage(bytes);
  const url = `data:${scaled.mime};base64,${Buffer.from(scaled.bytes).toString('base64')}`;
  return { type: 'input_image', image_url: url, detail: 'auto' };
}
