import * as z from 'zod';
import { IMAGE_MAX_SIDE, ImageDataUrl } from './images';

// What a user attaches to a prompt: a file (or some of its lines), a folder, the workspace's problems, the
// Loopwire terminal's last command, or the working tree's changes. The panel's composer holds these as chips
// and sends them with the prompt; `loopwire exec --file` makes the same. They are read when the prompt is
// sent (src/agent/conversation/attachments.ts), so what the model gets is what the files hold then. An image pasted or
// dropped on the panel is the one attachment that carries its content: the page has its pixels, scaled
// already (src/webview/imageFiles.ts), and the model gets them as an `input_image` part.

/** Lines `start` to `end` of a file, 1-based and inclusive: a selection. */
export const LineRange = z
  .object({ start: z.int().positive(), end: z.int().positive() })
  .refine((range) => range.end >= range.start, { message: 'a line range ends at or after its start' });

/** A workspace path, as the Workspace port names it (`/` separators, relative; `folder/…` in multi-root). */
const AttachedPath = z.string().min(1).max(4096);

export const Attachment = z.discriminatedUnion('kind', [
  /** A file, whole or the `lines` of a selection. */
  z.object({ kind: z.literal('file'), path: AttachedPath, lines: LineRange.optional() }),
  /** A folder: the list of its files (not their contents). */
  z.object({ kind: z.literal('folder'), path: AttachedPath }),
  /** The workspace's diagnostics, as the editor has them when the prompt is sent. */
  z.object({ kind: z.literal('problems') }),
  /** The Loopwire terminal's last command line and its output. */
  z.object({ kind: z.literal('terminal') }),
  /** `git diff` of the working tree against the index and HEAD. */
  z.object({ kind: z.literal('changes') }),
  /**
   * An image pasted or dropped on the panel, scaled to fit IMAGE_MAX_SIDE: `name` for its chip (the file's, or
   * `pasted image`), its size in pixels where known (a chat reopened from its transcript alone has the picture only).
   */
  z.object({
    kind: z.literal('image'),
    name: z.string().min(1).max(256),
    dataUrl: ImageDataUrl,
    width: z.int().positive().max(IMAGE_MAX_SIDE).optional(),
    height: z.int().positive().max(IMAGE_MAX_SIDE).optional(),
  }),
]);

/** At most this many attachments go with one prompt. */
export const MAX_ATTACHMENTS = 50;

export const Attachments = z.array(Attachment).max(MAX_ATTACHMENTS);

export type LineRange = z.infer<typeof LineRange>;
export type Attachment = z.infer<typeof Attachment>;

/** How a chip (and the model's label) names an attachment: `src/cart.js:12-20`, `src/`, `@problems`. */
export function attachmentLabel(attachment: Attachment): string {
  switch (attachment.kind) {
    case 'file':
      return attachment.lines
        ? `${attachment.path}:${attachment.lines.start}${attachment.lines.end === attachment.lines.start ? '' : `-${attachment.lines.end}`}`
        : attachment.path;
    case 'folder':
      return `${attachment.path}/`;
    case 'image':
      return attachment.width && attachment.height
        ? `${attachment.name} (${attachment.width}×${attachment.height})`
        : attachment.name;
    default:
      return `@${attachment.kind}`;
  }
}

/** Whether two attachments name the same thing (a chip is not added twice). */
export function sameAttachment(a: Attachment, b: Attachment): boolean {
  // Two pastes are one image only if their pixels are (each screenshot is `pasted image`).
  if (a.kind === 'image' || b.kind === 'image')
    return a.kind === 'image' && b.kind === 'image' && a.dataUrl === b.dataUrl;
  return attachmentLabel(a) === attachmentLabel(b) && a.kind === b.kind;
}
