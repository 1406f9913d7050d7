import * as z from 'zod';

// An image as Loopwire hands it to the model: PNG or JPEG, at most IMAGE_MAX_SIDE px on its long side, inline
// in a base64 `data:` URL (the API's `input_image`). The panel scales a pasted or dropped image in the page,
// `loopwire exec --image` and `view_image` with jimp (src/tools/imageScale.ts): both to these bounds.

/** The long side an image is scaled down to fit (the API scales larger ones to fit 2048 anyway). */
export const IMAGE_MAX_SIDE = 2048;

/** The most bytes of one image, as sent (after scaling): 10 MiB, its data URL a third longer. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The most images one prompt carries. */
export const MAX_IMAGES = 10;

/** The largest image file the panel takes in (it is scaled down, but decoded whole first): 20 MB. */
export const IMAGE_SOURCE_MAX_BYTES = 20 * 1024 * 1024;

/** The image types the panel decodes, by a file name's extension; the model gets PNG or JPEG. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

/** The type of an image file by its name's extension; undefined for a name that is not one of IMAGE_TYPES. */
export function imageTypeOf(name: string): string | undefined {
  const extension = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : IMAGE_TYPES[extension];
}

/** The characters of a data URL holding `bytes`, with room for its `data:…;base64,` head. */
const dataUrlLength = (bytes: number) => Math.ceil(bytes / 3) * 4 + 64;
const MAX_DATA_URL = dataUrlLength(IMAGE_MAX_BYTES);

const HEAD = /^data:image\/(?:png|jpeg);base64,/;
// One character class, no groups: a regex that repeats a group backtracks on the stack, and a data URL is
// megabytes long (V8 overflows its stack well before 10 MiB).
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Whether `url` is a PNG or JPEG in a base64 data URL with bytes in it. */
function isImageDataUrl(url: string): boolean {
  const head = HEAD.exec(url);
  if (!head) return false;
  const payload = url.slice(head[0].length);
  return payload.length % 4 === 0 && BASE64.test(payload);
}

/** A PNG or JPEG in a base64 data URL, as the API takes it (and as the bundled backend checks it). */
export const ImageDataUrl = z
  .string()
  .max(MAX_DATA_URL)
  .refine(isImageDataUrl, { message: 'an image is a PNG or JPEG in a base64 data: URL', abort: true });

/**
 * An image file the host read for the page (one dropped from the explorer, which hands the page its URI
 * only): its name and its bytes as they are on disk, which the page scales as it scales a pasted one.
 */
export const ImageFile = z.object({
  name: z.string().min(1).max(256),
  // Only the head is matched: the payload is checked where the page decodes it (imageFiles.ts).
  dataUrl: z
    .string()
    .max(dataUrlLength(IMAGE_SOURCE_MAX_BYTES))
    .regex(/^data:image\/(?:png|jpeg|gif|webp|bmp);base64,/),
});
export type ImageFile = z.infer<typeof ImageFile>;
