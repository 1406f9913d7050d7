import * as z from 'zod';

// An image as Loopwire hands it to the model: PNG or JPEG, at most IMAGE_MAX_SIDE px on its long side, inline
// in a base64 `data:` URL (the API's `input_image`). The panel scales a pasted or dropped image in the page,
// `loopwire exec --image` and `view_image` with jimp (src/tools/imageScale.ts): both to these bounds.

/** The long side an image is scaled down to fit (the API scales larger ones to fit 2048 anyway). */
export const IMAGE_MAX_SIDE = 2048;

/** The most bytes of one image, as sent (after scaling): 10 MiB, its data URL a third longer. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** The characters of a data URL holding IMAGE_MAX_BYTES, with room for its `data:…;base64,` head. */
const MAX_DATA_URL = Math.ceil(IMAGE_MAX_BYTES / 3) * 4 + 64;

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
