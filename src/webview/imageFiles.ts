import type { Attachment } from '../protocol/attachments';
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_SIDE,
  IMAGE_SOURCE_MAX_BYTES,
  IMAGE_TYPES,
  type ImageFile,
} from '../protocol/images';
import { t } from './l10n';

// An image pasted or dropped on the composer, made what the model is sent, in the page (the host never
// decodes it): scaled down to fit IMAGE_MAX_SIDE on its long side, in a base64 data URL.
//
// The format: a PNG or JPEG within bounds goes byte for byte (as `loopwire exec --image` sends one). One
// larger is drawn scaled on a canvas and stays in its own format — PNG keeps a screenshot's text sharp and
// its transparency — as `exec --image` scales too. Any other type the page decodes (GIF, WebP, BMP) becomes
// PNG if it has transparent pixels and JPEG if not. A PNG that comes out over IMAGE_MAX_BYTES goes as JPEG
// when it is opaque (a photo pasted as PNG); an image still over it is refused.

export type ImageAttachment = Extract<Attachment, { kind: 'image' }>;

/** The types the page decodes; the model gets PNG or JPEG. */
const DECODED = new Set(Object.values(IMAGE_TYPES));
const JPEG_QUALITY = 0.9;

/** Why a file is not attached, for the line under the composer. */
export class ImageRefused extends Error {}

/** Whether a file in a paste or drop is one this takes in (any other image type is refused with a reason). */
export const isImageFile = (file: File) => file.type.startsWith('image/');

/** An image file the host read (ImageFile), as the File a drop would have carried. */
export function fileOf(image: ImageFile): File {
  const comma = image.dataUrl.indexOf(',');
  const type = image.dataUrl.slice('data:'.length, image.dataUrl.indexOf(';'));
  const binary = atob(image.dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at++) bytes[at] = binary.charCodeAt(at);
  return new File([bytes], image.name, { type });
}

/** `width`×`height` scaled (never up) to fit `max` on the long side, each side at least a pixel. */
export function scaledSize(width: number, height: number, max = IMAGE_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

const megabytes = (bytes: number) => t('{0} MB', (bytes / (1024 * 1024)).toFixed(1));

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('the file could not be read'));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}

/** Whether every pixel the canvas holds is opaque. */
function opaque(canvas: OffscreenCanvas, context: OffscreenCanvasRenderingContext2D): boolean {
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  for (let at = 3; at < pixels.length; at += 4) if (pixels[at] !== 255) return false;
  return true;
}

/** `source` (decoded from a file of `type`) scaled to `size` and encoded by the rule at the top of this file. */
async function encodeScaled(source: ImageBitmap, type: string, size: { width: number; height: number }): Promise<Blob> {
  // createImageBitmap's own resize filters the whole image (a single drawImage at a third of the size aliases).
  const bitmap = await createImageBitmap(source, {
    resizeWidth: size.width,
    resizeHeight: size.height,
    resizeQuality: 'high',
  });
  const canvas = new OffscreenCanvas(size.width, size.height);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const isOpaque = type === 'image/jpeg' || opaque(canvas, context);
  const encoded = type === 'image/png' || !isOpaque ? 'image/png' : 'image/jpeg';
  const blob = await canvas.convertToBlob({ type: encoded, quality: JPEG_QUALITY });
  if (blob.size > IMAGE_MAX_BYTES && encoded === 'image/png' && isOpaque)
    return canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  return blob;
}

/** A pasted or dropped file as an image chip, scaled and encoded; an ImageRefused says why it cannot be. */
export async function imageAttachment(file: File): Promise<ImageAttachment> {
  const name = file.name.trim() === '' ? t('pasted image') : file.name.slice(0, 256);
  if (!DECODED.has(file.type))
    throw new ImageRefused(
      t('{0}: {1} cannot be attached (PNG, JPEG, GIF, WebP or BMP)', name, file.type || t('this type')),
    );
  if (file.size > IMAGE_SOURCE_MAX_BYTES)
    throw new ImageRefused(
      t(
        '{0} is {1}: an image of at most {2} can be attached',
        name,
        megabytes(file.size),
        megabytes(IMAGE_SOURCE_MAX_BYTES),
      ),
    );
  let source: ImageBitmap;
  try {
    source = await createImageBitmap(file);
  } catch {
    throw new ImageRefused(t('{0}: the image does not decode', name));
  }
  let blob: Blob;
  const size = scaledSize(source.width, source.height);
  try {
    const within = size.width === source.width && size.height === source.height;
    const asIs = within && (file.type === 'image/png' || file.type === 'image/jpeg') && file.size <= IMAGE_MAX_BYTES;
    blob = asIs ? file : await encodeScaled(source, file.type, size);
  } catch (error) {
    throw new ImageRefused(t('{0}: the image could not be scaled ({1})', name, String(error)));
  } finally {
    source.close();
  }
  if (blob.size > IMAGE_MAX_BYTES)
    throw new ImageRefused(
      t(
        '{0}: {1} even scaled down; an image of at most {2} can be sent',
        name,
        megabytes(blob.size),
        megabytes(IMAGE_MAX_BYTES),
      ),
    );
  let dataUrl: string;
  try {
    dataUrl = await dataUrlOf(blob);
  } catch {
    throw new ImageRefused(t('{0}: the file could not be read', name));
  }
  return { kind: 'image', name, dataUrl, width: size.width, height: size.height };
}
