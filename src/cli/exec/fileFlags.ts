import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ATTACHMENTS_MAX_BYTES, ATTACHMENT_MAX_BYTES, AttachmentError, attachmentParts } from '../../agent';
import { type Attachment, type InputImage, type InputText, attachmentLabel } from '../../protocol';
import { IMAGE_MAX_SIDE, ImageError, imagePart } from '../../tools/imageScale';
import { type Workspace, isWorkspaceError } from '../../workspace';
import { t } from '../cliL10n';

// `loopwire exec --file PATH` (repeatable): files and folders attached to the prompt, as the panel's chips
// attach them — the same parts, read through the same core code (src/agent/conversation/attachments.ts). A path is taken
// from the current directory, like any other command's, and must be in the workspace.

export const fileFlagsUsage = `  --file PATH            ${t(
  "attach a file's text, or a folder's list of files, to the prompt (repeatable);\n                         it must be in the workspace; {0} KiB each and {1} KiB in all are sent,\n                         the cut said to the model",
  ATTACHMENT_MAX_BYTES / 1024,
  ATTACHMENTS_MAX_BYTES / 1024,
)}
  --image FILE           ${t('attach a PNG or JPEG image to the prompt (repeatable), scaled to fit {0} px', IMAGE_MAX_SIDE)}
`;

export const fileFlagOptions = {
  file: { type: 'string', multiple: true },
  image: { type: 'string', multiple: true },
} as const;

/**
 * The parts `--image` attaches, each an `input_image` with the picture in a data URL, or the usage error's
 * message. Any readable file may be given (a screenshot is rarely in the workspace): the model sees pixels
 * only, never the path.
 */
export async function imageFlagParts(
  images: readonly string[] | undefined,
  cwd: string = process.cwd(),
): Promise<InputImage[] | string> {
  const parts: InputImage[] = [];
  for (const given of images ?? []) {
    try {
      parts.push(await imagePart(await fs.readFile(path.resolve(cwd, given))));
    } catch (error) {
      if (error instanceof ImageError) return `--image ${given}: ${error.message}`;
      return `--image ${given}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return parts;
}

/** What `--file` and `--image` attach, files first, or the usage error's message. */
export async function promptFlagParts(
  flags: { file?: readonly string[]; image?: readonly string[] },
  workspace: Workspace & { readonly root: string },
): Promise<(InputText | InputImage)[] | string> {
  const files = await fileFlagParts(flags.file, workspace);
  if (typeof files === 'string') return files;
  const images = await imageFlagParts(flags.image);
  return typeof images === 'string' ? images : [...files, ...images];
}

/** The parts `--file` attaches, or the usage error's message (a path outside the workspace, a missing file). */
export async function fileFlagParts(
  files: readonly string[] | undefined,
  workspace: Workspace & { readonly root: string },
  cwd: string = process.cwd(),
): Promise<InputText[] | string> {
  if (!files || files.length === 0) return [];
  const attachments: Attachment[] = [];
  for (const given of files) {
    const absolute = path.resolve(cwd, given);
    try {
      attachments.push({ kind: 'file', path: workspace.locate(absolute).path });
    } catch (error) {
      if (!isWorkspaceError(error) || error.code !== 'outside_workspace')
        return `--file ${given}: ${error instanceof Error ? error.message : String(error)}`;
      return `--file ${given}: ${absolute} is outside the workspace (${workspace.root}); only files in the workspace can be attached`;
    }
  }
  try {
    return await attachmentParts(attachments, { workspace }, { strict: true });
  } catch (error) {
    if (error instanceof AttachmentError) {
      const given =
        files[attachments.findIndex((attachment) => attachmentLabel(attachment) === error.label)] ?? error.label;
      return `--file ${given}: ${error.message}`;
    }
    throw error;
  }
}
