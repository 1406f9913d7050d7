import * as fs from 'node:fs';
import { type AnyInputItem, type CallItem, PROJECT_INSTRUCTIONS_HEADING } from '../../protocol';
import type { ToolRegistry } from '../../tools';
import type { Workspace } from '../../workspace';

// An AGENTS.md below the workspace folder governs the files under its own folder (`packages/api/AGENTS.md`:
// the API package's conventions). The task's start sends those from the repository root down to the
// workspace folder (projectInstructions.ts); one further down is sent when the agent first works there —
// reads, searches or edits under its folder — once per conversation, as its own message naming its scope,
// before the next request. Where it differs from the instructions above it, it wins for the files under it,
// as the standing instructions tell the model.

/** What marks a nested file's message, beside the heading all AGENTS.md messages share. */
const SCOPE_OPEN = '<INSTRUCTIONS scope="';

/** Bytes of one nested file sent at most (its own share: the root's cap is for the files above). */
export const NESTED_INSTRUCTIONS_MAX_BYTES = 16 * 1024;

/** Whether `item` is a nested AGENTS.md message (not the task's project instructions, nor a prompt). */
export function isNestedInstructions(item: AnyInputItem): boolean {
  const text = firstText(item);
  return text !== undefined && text.startsWith(PROJECT_INSTRUCTIONS_HEADING) && text.includes(SCOPE_OPEN);
}

/** The folders a call works in: those of the paths it names, and a search's or a command's folder. */
export function callFolders(call: CallItem, registry: ToolRegistry): string[] {
  const input = call.type === 'custom_tool_call' ? (call.input ?? '') : (call.arguments ?? '');
  const folders = registry.paths(call.name, input).map((file) => parentOf(file));
  // Asked after every call: most calls name none of these keys, and the arguments are not parsed again for them.
  if (!/"(?:include|pattern|workdir)"/.test(input)) return [...new Set(folders.filter((folder) => folder !== ''))];
  const args = jsonObject(input);
  // A search's glob and a command's folder: the paths a tool names itself come from the registry above.
  for (const key of ['include', 'pattern', 'workdir']) {
    const value = args[key];
    if (typeof value === 'string' && value.trim() !== '')
      folders.push(key === 'workdir' ? clean(value) : staticFolder(value));
  }
  return [...new Set(folders.filter((folder) => folder !== ''))];
}

/**
 * The conversations (by their transcripts) whose project instructions were withheld at their last task's
 * start, an untrusted workspace the user has not allowed: no AGENTS.md below the folder is sent to them either
 * (projectInstructions.ts, appendProjectInstructions).
 */
const withheld = new WeakSet<object>();

/** Whether the conversation of `transcript` is sent no nested AGENTS.md (see `withheld`). */
export function withholdNestedInstructions(transcript: object, withhold: boolean): void {
  if (withhold) withheld.add(transcript);
  else withheld.delete(transcript);
}

export const nestedInstructionsWithheld = (transcript: object): boolean => withheld.has(transcript);

/**
 * The folders among `folders` and those above them (below the workspace folder) whose AGENTS.md may be on
 * disk and was not sent in this conversation yet (`items`), outermost first: empty on most calls, and then the
 * agent goes on to its next request without a turn of the loop (nestedInstructionsFor's await).
 */
export function nestedCandidates(
  folders: readonly string[],
  items: readonly AnyInputItem[],
  workspace: Workspace,
): string[] {
  const scopes = [...new Set(folders.flatMap(ancestors))].sort((a, b) => a.split('/').length - b.split('/').length);
  // Asked after every call, in the turn gap, and most folders have none: a synchronous stat says so; the
  // transcript is looked through for what was sent only where there is one. No cache: an AGENTS.md the last
  // call (or anyone) created is seen at once.
  const onDisk = scopes.filter((scope) => mayExist(workspace, `${scope}/AGENTS.md`));
  if (onDisk.length === 0) return onDisk;
  const sent = new Set(items.filter(isNestedInstructions).map(scopeOf));
  return onDisk.filter((scope) => !sent.has(scope));
}

/**
 * The messages of the AGENTS.md files governing `folders` that sit below the workspace folder and were not
 * sent in this conversation yet (`items`), outermost first.
 */
export async function nestedInstructionsFor(
  folders: readonly string[],
  items: readonly AnyInputItem[],
  workspace: Workspace,
): Promise<AnyInputItem[]> {
  return readNested(nestedCandidates(folders, items, workspace), workspace);
}

/** The messages of the AGENTS.md files of `scopes` (nestedCandidates'), read through the port. */
export async function readNested(scopes: readonly string[], workspace: Workspace): Promise<AnyInputItem[]> {
  const messages: AnyInputItem[] = [];
  for (const scope of scopes) {
    // Read through the port, as the tools read it (an editor's unsaved text in VS Code).
    const file = await workspace.tryReadFile(`${scope}/AGENTS.md`).catch(() => undefined);
    if (!file || file.text.trim() === '') continue;
    messages.push(nestedMessage(scope, file.text));
  }
  return messages;
}

/** False only where the disk plainly has nothing at workspace path `path` (no entry, or a file in its way). */
function mayExist(workspace: Workspace, path: string): boolean {
  try {
    return fs.statSync(workspace.locate(path).absolute, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true; // A path the port refuses, or a stat refused: the read says what it is.
  }
}

function nestedMessage(scope: string, text: string): AnyInputItem {
  const bytes = Buffer.byteLength(text);
  const kept =
    bytes > NESTED_INSTRUCTIONS_MAX_BYTES
      ? Buffer.from(text).subarray(0, NESTED_INSTRUCTIONS_MAX_BYTES).toString('utf8')
      : text;
  const cut =
    kept === text ? '' : `\n[Cut at ${NESTED_INSTRUCTIONS_MAX_BYTES / 1024} KiB of ${Math.ceil(bytes / 1024)} KiB.]`;
  const body =
    `${PROJECT_INSTRUCTIONS_HEADING}${scope}\n\n` +
    `These apply to the files under ${scope}/ and, where they differ, override the instructions given for the folders above it.\n\n` +
    `${SCOPE_OPEN}${scope}">\n--- ${scope}/AGENTS.md ---\n${kept.replace(/\s+$/, '')}${cut}\n</INSTRUCTIONS>`;
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text: body }] };
}

/** Every folder from the top down to `folder` (`a/b` → `a`, `a/b`); the workspace folder itself is not one. */
function ancestors(folder: string): string[] {
  const parts = folder.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return [];
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** The folder a nested AGENTS.md message governs. */
export function scopeOf(item: AnyInputItem): string {
  const text = firstText(item) ?? '';
  const start = text.indexOf(SCOPE_OPEN) + SCOPE_OPEN.length;
  return text.slice(start, text.indexOf('"', start));
}

/** The folder of a workspace path (`a/b/c.ts` → `a/b`), '' at the top. */
function parentOf(file: string): string {
  const path = clean(file);
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The folder a glob names before its first wildcard: `packages/api/**` → `packages/api`. */
function staticFolder(glob: string): string {
  const parts = clean(glob).split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?[\]{}!]/.test(part)) break;
    fixed.push(part);
  }
  // A glob with no wildcard at all names a file: its folder is the one before it.
  return (fixed.length === parts.length ? fixed.slice(0, -1) : fixed).join('/');
}

const clean = (path: string) => path.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

function jsonObject(input: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(input);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function firstText(item: AnyInputItem): string | undefined {
  const record = item as { role?: unknown; content?: unknown };
  if (record.role !== 'user') return undefined;
  if (typeof record.content === 'string') return record.content;
  const first = Array.isArray(record.content) ? (record.content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' ? first.text : undefined;
}
