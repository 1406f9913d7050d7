import * as path from 'node:path';
import { ATTACHMENTS_MAX_BYTES, ATTACHMENT_MAX_BYTES, AttachmentError, attachmentParts } from '../agent';
import { type Attachment, type InputText, attachmentLabel } from '../protocol';
import { type Workspace, isWorkspaceError } from '../workspace';

// `loopwire exec --file PATH` (repeatable): files and folders attached to the prompt, as the panel's chips
// attach them — the same parts, read through the same core code (src/agent/attachments.ts). A path is taken
// from the current directory, like any other command's, and must be in the workspace.

export const fileFlagsUsage = `  --file PATH            attach a file's text, or a folder's list of files, to the prompt (repeatable);
                         it must be in the workspace; ${ATTACHMENT_MAX_BYTES / 1024} KiB each and ${ATTACHMENTS_MAX_BYTES / 1024} KiB in all are sent,
                         the cut said to the model
`;

export const fileFlagOptions = { file: { type: 'string', multiple: true } } as const;

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
