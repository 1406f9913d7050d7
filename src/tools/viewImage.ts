import * as fs from 'node:fs/promises';
import { t } from '@vscode/l10n';
import { z } from 'zod';
import { ImageError, imagePart } from './imageScale';
import { defineTool } from './tool';
import { refusal } from './toolErrors';

// Codex's view_image: the model looks at an image in the workspace (a screenshot a test wrote, a design).
// The answer is the picture itself, an `input_image` part of the call's output, so it is offered only to
// models that take images (`optIn: 'images'`, the model catalogue's images column).

export const ViewImageArgs = z.object({
  path: z.string().describe('Local filesystem path to an image file (PNG or JPEG), relative to the workspace'),
});

export const viewImageTool = defineTool({
  name: 'view_image',
  description:
    "View a local image from the filesystem (only use if given a filepath by the user or one a command wrote, and the image isn't already attached to the conversation).",
  args: ViewImageArgs,
  effect: 'read',
  optIn: 'images',
  async run({ path }, { workspace }) {
    let bytes: Uint8Array;
    let located: string;
    try {
      const location = workspace.locate(path);
      located = location.path;
      // The port reads text; an image's bytes are read where the port locates them (a local folder).
      bytes = await fs.readFile(location.absolute);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      return refusal(`Cannot read ${path}: ${cause}`, () => t('Cannot read {0}: {1}', path, cause));
    }
    try {
      const image = await imagePart(bytes);
      return { ok: true, output: `Image ${located} (${bytes.length} bytes), attached below.`, images: [image] };
    } catch (error) {
      if (error instanceof ImageError)
        return refusal(`Cannot view ${located}: ${error.message}.`, () =>
          t('{0} cannot be shown as an image: {1}.', located, error.message),
        );
      throw error;
    }
  },
});
