import * as vscode from 'vscode';
import { type AttachmentSources, type TerminalCommand, gitChanges } from '../../../agent';
import type { Attachment } from '../../../protocol/attachments';
import type { ContextMatch } from '../../../protocol/chatView';
import { type ImageFile, IMAGE_SOURCE_MAX_BYTES, MAX_IMAGES, imageTypeOf } from '../../../protocol/images';
import { type TaskRun, type Workspace, globMatcher } from '../../../workspace';
import type { ChatContext } from '../composer/contextPort';
import { fuzzyPaths } from '../composer/fuzzyPaths';
import { resourceAttachment, selectionAttachment } from '../../commands/addToChat';

// The window's side of the composer's attachments (composer/contextPort.ts): the `@` picker searches the
// workspace's files as the editor's search does — the Workspace port's file search (ripgrep's, so
// .gitignore is kept, and `files.exclude`) less `search.exclude` — and ranks them as Quick Open does;
// `@selection` is the active editor's; a drop or Add to Chat names resources by URI; `@terminal` is the last
// command the Loopwire terminal ran; `@changes` is git's.

/** Files listed for the picker at most: a bigger workspace is searched in its first ones. */
const MAX_LISTED = 20_000;
/** The list is read again after this long (files come and go while the user types). */
const LIST_TTL_MS = 5_000;

export class WindowChatContext implements ChatContext {
  private listed: { at: number; files: Promise<string[]> } | undefined;
  private lastCommand: TerminalCommand | undefined;

  constructor(private readonly workspace: () => Promise<Workspace>) {}

  /** A command the Loopwire terminal ran ended (commandTerminal.ts): `@terminal` attaches the last. */
  commandFinished(command: string, run: TaskRun): void {
    // A long output's middle is already cut, with a line that says so (outputTail.ts).
    this.lastCommand = { command, output: run.output, exitCode: run.exitCode ?? undefined };
  }

  async find(query: string): Promise<ContextMatch[]> {
    return fuzzyPaths(await this.files(), query);
  }

  selection(): Attachment | string {
    return selectionAttachment(vscode.window.activeTextEditor);
  }

  async fromUris(
    uris: readonly string[],
  ): Promise<{ attachments: Attachment[]; refused: string[]; images: ImageFile[]; notes: string[] }> {
    const attachments: Attachment[] = [];
    const refused: string[] = [];
    const images: ImageFile[] = [];
    const notes: string[] = [];
    for (const text of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(text, true);
      } catch {
        refused.push(text);
        continue;
      }
      // An image is read for the page, which scales it as it scales a pasted one: the model gets its pixels.
      const type = imageTypeOf(uri.path);
      if (type !== undefined && images.length < MAX_IMAGES) {
        const read = await readImage(uri, type);
        if (typeof read === 'string') notes.push(read);
        else images.push(read);
        continue;
      }
      const attachment = await resourceAttachment(uri);
      if (attachment) attachments.push(attachment);
      else refused.push(uri.scheme === 'file' ? uri.fsPath : text);
    }
    return { attachments, refused, images, notes };
  }

  sources(): Omit<AttachmentSources, 'workspace'> {
    return {
      terminal: () => Promise.resolve(this.lastCommand),
      changes: async () => {
        const folder = vscode.workspace.workspaceFolders?.[0];
        return folder?.uri.scheme === 'file' ? gitChanges(folder.uri.fsPath) : undefined;
      },
    };
  }

  /** The workspace's files, as the search lists them less `search.exclude`, read at most every few seconds. */
  private files(): Promise<string[]> {
    const now = Date.now();
    if (this.listed && now - this.listed.at < LIST_TTL_MS) return this.listed.files;
    const files = (async () => {
      const found = await (await this.workspace()).findFiles('**', MAX_LISTED);
      const excluded = searchExcluded();
      return found.files.filter((file) => !excluded(file));
    })();
    this.listed = { at: now, files };
    // A failed listing is not kept: the next keystroke tries again.
    files.catch(() => (this.listed = undefined));
    return files;
  }
}

/** `search.exclude`'s globs (the first folder's), as a predicate; a folder's glob hides what is under it. */
function searchExcluded(): (path: string) => boolean {
  const value =
    vscode.workspace
      .getConfiguration('search', vscode.workspace.workspaceFolders?.[0])
      .get<Record<string, unknown>>('exclude') ?? {};
  const matchers = Object.entries(value)
    .filter(([, on]) => on === true)
    .map(([glob]) => globMatcher(glob));
  return (path) =>
    matchers.some(
      (matches) => matches(path) || path.split('/').some((_, i, parts) => matches(parts.slice(0, i + 1).join('/'))),
    );
}

/** An image file as its bytes in a data URL, or why it is not attached (gone, or over IMAGE_SOURCE_MAX_BYTES). */
async function readImage(uri: vscode.Uri, type: string): Promise<ImageFile | string> {
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1) || uri.path;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > IMAGE_SOURCE_MAX_BYTES)
      return vscode.l10n.t(
        'Not attached: {0} is {1} MB; an image of at most {2} MB can be.',
        name,
        (stat.size / (1024 * 1024)).toFixed(1),
        IMAGE_SOURCE_MAX_BYTES / (1024 * 1024),
      );
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { name: name.slice(0, 256), dataUrl: `data:${type};base64,${Buffer.from(bytes).toString('base64')}` };
  } catch (error) {
    return vscode.l10n.t(
      'Not attached: {0} could not be read ({1}).',
      name,
      error instanceof Error ? error.message : String(error),
    );
  }
}
