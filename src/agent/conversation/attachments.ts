import type { InputText } from '../../protocol';
import { type Attachment, attachmentLabel } from '../../protocol/attachments';
import { type Workspace, isWorkspaceError } from '../../workspace';

// What the user attached to a prompt, read when it is sent and given to the model as parts of the user's
// message after the prompt's own text: one `input_text` per attachment, labelled with its source
// (`<attachment kind="file" path="src/cart.js" lines="12-20">`), so the model knows what each is and the
// panel can show a reopened prompt's chips again (`attachmentOfPart`). The panel and `loopwire exec --file`
// both come here, through the Workspace port: a path outside the workspace is refused as every tool refuses it.
//
// The text is capped — 32 KiB an attachment, 128 KiB a prompt — and the cut is said where it falls
// (`… cut at 32 KiB of 120 KiB`): a large file is the model's whole context otherwise, and the model should
// know that it sees part of it (it can read the rest with its tools).

/** The most of one attachment's text that is sent. */
export const ATTACHMENT_MAX_BYTES = 32 * 1024;
/** The most of all of a prompt's attachments' text that is sent. */
export const ATTACHMENTS_MAX_BYTES = 128 * 1024;
/** The most files a folder's listing names. */
export const FOLDER_MAX_FILES = 500;

/** The Loopwire terminal's last command, as the editor saw it run. */
export interface TerminalCommand {
  command: string;
  output: string;
  exitCode?: number | undefined;
}

/** Where the attachments that are not files are read from; a source left out is said to be missing here. */
export interface AttachmentSources {
  workspace: Workspace;
  /** The Loopwire terminal's last command; undefined when none has run. */
  terminal?: () => Promise<TerminalCommand | undefined>;
  /** `git diff` of the working tree (gitChanges.ts); undefined where there is no git repository. */
  changes?: () => Promise<string | undefined>;
}

export interface AttachmentCaps {
  each: number;
  total: number;
  folderFiles: number;
}

const DEFAULT_CAPS: AttachmentCaps = {
  each: ATTACHMENT_MAX_BYTES,
  total: ATTACHMENTS_MAX_BYTES,
  folderFiles: FOLDER_MAX_FILES,
};

/** An attachment that cannot be read (a missing file, a path outside the workspace): `code` as the port's. */
export class AttachmentError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly label: string,
  ) {
    super(message);
    this.name = 'AttachmentError';
  }
}

export interface AttachmentOptions {
  caps?: Partial<AttachmentCaps>;
  /**
   * Throw an AttachmentError for one that cannot be read (the CLI: a bad `--file` is a usage error), rather
   * than send a part that says why (the panel: the prompt is already on its way).
   */
  strict?: boolean;
}

/** The parts that carry `attachments` to the model, in order, capped (see the top of this file). */
export async function attachmentParts(
  attachments: readonly Attachment[],
  sources: AttachmentSources,
  options: AttachmentOptions = {},
): Promise<InputText[]> {
  const caps = { ...DEFAULT_CAPS, ...options.caps };
  let left = caps.total;
  const parts: InputText[] = [];
  for (const attachment of attachments) {
    let body: string;
    try {
      body = await bodyOf(attachment, sources, caps);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = isWorkspaceError(error) ? error.code : error instanceof AttachmentError ? error.code : 'io_error';
      if (options.strict) throw new AttachmentError(code, message, attachmentLabel(attachment));
      parts.push(part(attachment, `(not attached: ${message})`));
      continue;
    }
    const cap = Math.min(caps.each, left);
    const { text, bytes, total } = cutUtf8(body, cap);
    left -= bytes;
    if (bytes === total) parts.push(part(attachment, text));
    else {
      const gap = text === '' || text.endsWith('\n') ? '' : '\n';
      parts.push(part(attachment, `${text}${gap}${cutNote(bytes, total, cap < caps.each, caps)}`));
    }
  }
  return parts;
}

function cutNote(bytes: number, total: number, byTotal: boolean, caps: AttachmentCaps): string {
  const why = byTotal
    ? `: a prompt's attachments are capped at ${size(caps.total)} in all`
    : `: an attachment is capped at ${size(caps.each)}`;
  return bytes === 0
    ? `… left out (${size(total)})${why}`
    : `… cut at ${size(bytes)} of ${size(total)}${why}; read the rest with the tools if needed`;
}

/** `32 KiB`, `1.5 KiB`, `900 bytes`. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  return `${Number((bytes / 1024).toFixed(1))} KiB`;
}

/** The opening tag's attributes: what the attachment is, for the model and for `attachmentOfPart`. */
function part(attachment: Attachment, body: string): InputText {
  const attributes: [string, string][] = [['kind', attachment.kind]];
  if (attachment.kind === 'file' || attachment.kind === 'folder') attributes.push(['path', attachment.path]);
  if (attachment.kind === 'file' && attachment.lines)
    attributes.push(['lines', `${attachment.lines.start}-${attachment.lines.end}`]);
  const tag = attributes.map(([name, value]) => `${name}="${escapeAttribute(value)}"`).join(' ');
  return { type: 'input_text', text: `<attachment ${tag}>\n${body.replace(/\n$/, '')}\n</attachment>` };
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, '&#10;');
const unescapeAttribute = (value: string) =>
  value
    .replace(/&#10;/g, '\n')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const OPENING = /^<attachment ((?:[a-z]+="[^"]*" ?)+)>\n/;

/** The attachment a part of a user message carries (as `attachmentParts` wrote it), else undefined. */
export function attachmentOfPart(text: string): Attachment | undefined {
  const opening = OPENING.exec(text);
  if (!opening?.[1]) return undefined;
  const attributes = new Map(
    [...opening[1].matchAll(/([a-z]+)="([^"]*)"/g)].map((match) => [match[1], unescapeAttribute(match[2] ?? '')]),
  );
  const kind = attributes.get('kind');
  const path = attributes.get('path');
  if (kind === 'problems' || kind === 'terminal' || kind === 'changes') return { kind };
  if (kind === 'folder' && path) return { kind, path };
  if (kind !== 'file' || !path) return undefined;
  const lines = /^(\d+)-(\d+)$/.exec(attributes.get('lines') ?? '');
  return lines ? { kind, path, lines: { start: Number(lines[1]), end: Number(lines[2]) } } : { kind, path };
}

async function bodyOf(attachment: Attachment, sources: AttachmentSources, caps: AttachmentCaps): Promise<string> {
  const { workspace } = sources;
  switch (attachment.kind) {
    case 'file': {
      let text: string;
      try {
        text = (await workspace.readFile(attachment.path)).text;
      } catch (error) {
        // A folder dropped or named as a file is listed as one.
        if (isWorkspaceError(error) && error.code === 'is_directory' && !attachment.lines)
          return folderListing(workspace, attachment.path, caps.folderFiles);
        throw error;
      }
      return attachment.lines ? linesOf(text, attachment.lines.start, attachment.lines.end) : text;
    }
    case 'folder':
      return folderListing(workspace, attachment.path, caps.folderFiles);
    case 'problems':
      return problems(workspace);
    case 'terminal': {
      if (!sources.terminal) return 'There is no Loopwire terminal here.';
      const last = await sources.terminal();
      if (!last) return 'No command has run in the Loopwire terminal yet.';
      const exit = last.exitCode === undefined ? '' : ` (exit code ${last.exitCode})`;
      return `$ ${last.command}${exit}\n${last.output}`;
    }
    case 'image':
      // An image is no text: promptParts.ts sends it as an input_image part of its own.
      throw new AttachmentError('not_text', 'an image is sent as an image, not as text', attachmentLabel(attachment));
    case 'changes': {
      if (!sources.changes) return 'The working tree’s changes cannot be read here.';
      const diff = await sources.changes();
      if (diff === undefined) return 'The workspace is not in a git repository: there are no changes to show.';
      return diff.trim() === '' ? 'No changes: the working tree matches HEAD.' : diff;
    }
  }
}

/** Lines `start` to `end` (1-based, inclusive) of `text`; what is past its end is said to be. */
function linesOf(text: string, start: number, end: number): string {
  const lines = text.split('\n');
  if (start > lines.length) return `(the file has ${lines.length} lines now: line ${start} is past its end)`;
  const picked = lines.slice(start - 1, end).join('\n');
  return end > lines.length ? `${picked}\n(the file has ${lines.length} lines now)` : picked;
}

/** Glob metacharacters in a folder's name, each as a one-character class, so the name matches itself. */
const escapeGlob = (path: string) => path.replace(/[*?[\]{}]/g, (char) => `[${char}]`);

async function folderListing(workspace: Workspace, folder: string, maxFiles: number): Promise<string> {
  const path = workspace.locate(folder).path;
  const found = await workspace.findFiles(`${escapeGlob(path)}/**`, maxFiles);
  if (found.total === 0) return `The folder ${path} has no files (or only files .gitignore leaves out).`;
  const more = found.total > found.files.length ? `\n… ${found.files.length} of ${found.total} files listed` : '';
  return `The folder's files (${found.total}):\n${found.files.join('\n')}${more}`;
}

async function problems(workspace: Workspace): Promise<string> {
  if (!workspace.capabilities.diagnostics) return 'No language services here report problems.';
  const found = await workspace.diagnostics();
  if (found.length === 0) return 'No problems in the workspace.';
  const order = { error: 0, warning: 1, info: 2, hint: 3 };
  return [...found]
    .sort((a, b) => order[a.severity] - order[b.severity] || a.path.localeCompare(b.path) || a.line - b.line)
    .map(
      (problem) =>
        `${problem.path}:${problem.line}:${problem.column} ${problem.severity}${problem.source ? ` [${problem.source}]` : ''}: ${problem.message}`,
    )
    .join('\n');
}

/** The first `max` bytes of `text`, cut on a character and, where one is near, after a line's end. */
function cutUtf8(text: string, max: number): { text: string; bytes: number; total: number } {
  const data = Buffer.from(text, 'utf8');
  if (data.length <= max) return { text, bytes: data.length, total: data.length };
  let end = Math.max(0, max);
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character's first byte.
  while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
  const newline = data.lastIndexOf(0x0a, end - 1);
  if (newline >= 0 && end - newline <= 4096) end = newline + 1;
  return { text: data.subarray(0, end).toString('utf8'), bytes: end, total: data.length };
}
