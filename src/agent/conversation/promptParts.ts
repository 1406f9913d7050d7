import { type InputImage, type InputText, ImageDataUrl } from '../../protocol';
import type { Attachment } from '../../protocol/attachments';
import { type AttachmentOptions, type AttachmentSources, attachmentParts } from './attachments';

// A prompt's attachments as the parts of the user's message, in the order of their chips: a text attachment's
// labelled `input_text` (attachments.ts, which caps the text), an image's `input_image` with its data URL. The
// message goes into the transcript whole, so the image is in the conversation's record: it reaches the model
// once while the turns chain on `previous_response_id`, and again only where a request carries the whole
// conversation (a new session's first prompt — a reloaded window, `--resume` — or a server that no longer
// holds the chain); a reopened chat shows its chip again (`imageOfPart`).

type ImageAttachment = Extract<Attachment, { kind: 'image' }>;

/** What the chip of an image read back from a transcript is called (the file's name is not sent). */
export const SAVED_IMAGE_NAME = 'image';

/** An image attachment as the model gets it. `auto`: the API picks the detail, as for `exec --image`. */
export function imageInputPart(image: ImageAttachment): InputImage {
  return { type: 'input_image', image_url: image.dataUrl, detail: 'auto' };
}

/** The image chip a part of a user message carries (an `input_image` with a PNG or JPEG data URL), else undefined. */
export function imageOfPart(part: { type?: unknown; image_url?: unknown }): ImageAttachment | undefined {
  if (part.type !== 'input_image') return undefined;
  const url = ImageDataUrl.safeParse(part.image_url);
  return url.success ? { kind: 'image', name: SAVED_IMAGE_NAME, dataUrl: url.data } : undefined;
}

/** The parts that carry `attachments` to the model, in their order: text read now (capped), images as they are. */
export async function promptParts(
  attachments: readonly Attachment[],
  sources: AttachmentSources,
  options: AttachmentOptions = {},
): Promise<(InputText | InputImage)[]> {
  const texts = attachments.filter((attachment) => attachment.kind !== 'image');
  // attachmentParts answers one part per attachment, in order (a failed read is a part that says why).
  const read = await attachmentParts(texts, sources, options);
  let next = 0;
  return attachments.map((attachment) =>
    attachment.kind === 'image' ? imageInputPart(attachment) : (read[next++] as InputText),
  );
}
