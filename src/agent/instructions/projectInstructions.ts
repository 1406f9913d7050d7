import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type AnyInputItem, PROJECT_INSTRUCTIONS_HEADING, userMessageText } from '../../protocol';
import { InstructionsCache, type Probes, signatureOf } from './instructionsCache';
import { isNestedInstructions, withholdNestedInstructions } from './nestedInstructions';

// The project's own instructions for agents, found as Codex finds them (codex-rs/core/src/project_doc.rs):
// from the repository root — the nearest folder above the workspace folder with a `.git` — down to the
// workspace folder, each folder's `AGENTS.md`, root first; without git, the workspace folder's alone. Then
// `.github/copilot-instructions.md`, which Copilot users already keep. 32 KiB in all, the cut said.
//
// They go to the model as their own user message, the way Codex sends them (`# AGENTS.md instructions for
// DIR` and `<INSTRUCTIONS>`), after the developer instructions and before the task's prompt, in the
// transcript: a chained turn inherits them with the rest of the context, and a compaction keeps them (it
// keeps user messages). They are read again at the start of each task; when they changed, the new text goes
// as a new message of that task, saying it replaces the earlier one. The earlier one stays where it was, as
// the turns that read it saw it, so a chained request (which sends only the new items) and a full-context
// one (which sends everything) give the model the same conversation (docs/agent-loop.md).

/** The most of all the files' text that is sent (Codex's `project_doc_max_bytes` default). */
export const PROJECT_INSTRUCTIONS_MAX_BYTES = 32 * 1024;

/** The file every folder from the repository root down may have. */
export const AGENTS_FILE = 'AGENTS.md';

/** Copilot's repository-wide instructions, read from each workspace folder. */
export const COPILOT_FILE = '.github/copilot-instructions.md';

/** What starts the message's text: how it is told from a prompt in a transcript (and by tools that read Codex's). */
const HEADING = PROJECT_INSTRUCTIONS_HEADING;

/** One file read. */
export interface InstructionFile {
  /** Absolute path. */
  path: string;
  /** As the panel and the message name it: relative to the workspace folder, with '/' (`../AGENTS.md` above it). */
  label: string;
  /** The file's size in bytes. */
  bytes: number;
  /** How much of it is sent: less than `bytes` when the cap cut it, 0 when it came after the cut. */
  sentBytes: number;
}

export interface ProjectInstructions {
  /** The workspace folders they were found for. */
  folders: string[];
  /** Every file found, in the order sent. */
  files: InstructionFile[];
  /** The message's text: empty when no file was found. */
  text: string;
  /** Files that exist but could not be read, with why (sent without them). */
  unreadable: string[];
}

/**
 * The folders whose `AGENTS.md` count for `folder`: from the git root (the nearest folder up with a `.git`
 * directory or file, a worktree's or submodule's included) down to `folder`; `folder` alone without one.
 */
export async function instructionFolders(folder: string, probes?: Probes): Promise<string[]> {
  const start = await fs.realpath(folder).catch(() => path.resolve(folder));
  const chain: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    chain.push(dir);
    if (await exists(path.join(dir, '.git'), probes)) return chain.reverse();
    if (path.dirname(dir) === dir) return [start];
  }
}

/** What a warm Send finds again without reading the files (instructionsCache.ts says when it reads them). */
const cache = new InstructionsCache<ProjectInstructions>();

/**
 * The project instructions for the workspace `folders` (their shared ancestors' files once): read at the
 * first call, then again only when one of the files, or a `.git` that decides which files count, changed.
 */
export function findProjectInstructions(
  folders: readonly string[],
  maxBytes: number = PROJECT_INSTRUCTIONS_MAX_BYTES,
): Promise<ProjectInstructions> {
  return cache.find(folders, maxBytes, readProjectInstructions);
}

/** Reads the project instructions for the workspace `folders` from disk; `probes` learns every path looked at. */
export async function readProjectInstructions(
  folders: readonly string[],
  maxBytes: number = PROJECT_INSTRUCTIONS_MAX_BYTES,
  probes?: Probes,
): Promise<ProjectInstructions> {
  const candidates: { path: string; label: string }[] = [];
  for (const folder of folders) {
    const base = await fs.realpath(folder).catch(() => path.resolve(folder));
    const label = (file: string) => path.relative(base, file).split(path.sep).join('/');
    for (const dir of await instructionFolders(folder, probes))
      candidates.push(labelled(path.join(dir, AGENTS_FILE), label));
    candidates.push(labelled(path.join(base, ...COPILOT_FILE.split('/')), label));
  }
  const seen = new Set<string>();
  const files: InstructionFile[] = [];
  const parts: string[] = [];
  const unreadable: string[] = [];
  let left = maxBytes;
  const cut: string[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.path)) continue;
    seen.add(candidate.path);
    let data: Buffer;
    try {
      // Its signature before its text: a write between the two makes the next call read it again.
      probes?.set(candidate.path, await signatureOf(candidate.path));
      data = await fs.readFile(candidate.path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') unreadable.push(`${candidate.label}: ${(error as Error).message}`);
      continue;
    }
    const whole = data.toString('utf8');
    if (whole.trim() === '') continue;
    const sent = truncateUtf8(data, left);
    files.push({ path: candidate.path, label: candidate.label, bytes: data.length, sentBytes: sent.bytes });
    if (sent.bytes < data.length) cut.push(sent.bytes === 0 ? `${candidate.label} (all of it)` : candidate.label);
    if (sent.bytes > 0) parts.push(`--- ${candidate.label} ---\n${sent.text.replace(/\s+$/, '')}`);
    left -= sent.bytes;
  }
  const resolved = await Promise.all(folders.map((folder) => fs.realpath(folder).catch(() => path.resolve(folder))));
  if (files.length === 0) return { folders: resolved, files, text: '', unreadable };
  const cutNote =
    cut.length === 0
      ? ''
      : `\n\n[Cut: project instructions are capped at ${maxBytes / 1024} KiB in all; left out: the rest of ${cut.join(', ')}.]`;
  const text = `${HEADING}${resolved.join(', ')}\n\n<INSTRUCTIONS>\n${parts.join('\n\n')}${cutNote}\n</INSTRUCTIONS>`;
  return { folders: resolved, files, text, unreadable };
}

/** Whether `item` is a project-instructions message (not a prompt the user typed). */
export function isProjectInstructions(item: AnyInputItem): boolean {
  // A nested AGENTS.md (nestedInstructions.ts) shares the heading but is not the task's set: never its update.
  return userMessageText(item)?.startsWith(HEADING) === true && !isNestedInstructions(item);
}

/**
 * At a task's start, the project instructions of `source` into `transcript` where new or changed. A source
 * that gives none (an untrusted workspace the user has not allowed) withholds the nested AGENTS.md files too,
 * which a repository could otherwise slip in below its root; no source at all changes nothing.
 */
export async function appendProjectInstructions(
  transcript: { readonly items: readonly AnyInputItem[]; append(...items: AnyInputItem[]): void },
  source: (() => Promise<ProjectInstructions | undefined>) | undefined,
): Promise<void> {
  if (!source) return;
  const project = await source();
  withholdNestedInstructions(transcript, project === undefined);
  const update = project ? projectInstructionsUpdate(project, transcript.items) : undefined;
  if (update) transcript.append(update);
}

/**
 * The message this task adds before its prompt, if any: the instructions when the transcript has none yet
 * or an earlier text; a note that they are gone when the files were removed since; nothing when unchanged.
 */
export function projectInstructionsUpdate(
  found: ProjectInstructions,
  items: readonly AnyInputItem[],
): AnyInputItem | undefined {
  const earlier = items.findLast(isProjectInstructions);
  const earlierText = earlier ? userMessageText(earlier) : undefined;
  if (found.text === '') {
    if (earlierText === undefined || earlierText.endsWith(REMOVED)) return undefined;
    return userMessage(`${HEADING}${found.folders.join(', ')}\n\n${REMOVED}`);
  }
  if (earlierText === undefined) return userMessage(found.text);
  if (stripReplaced(earlierText) === found.text) return undefined;
  return userMessage(found.text.replace('\n\n<INSTRUCTIONS>', `\n\n${REPLACES}\n\n<INSTRUCTIONS>`));
}

const REMOVED = 'The project instructions given earlier in this conversation were removed: disregard them.';
const REPLACES = 'The project instructions changed: these replace those given earlier in this conversation.';

const stripReplaced = (text: string) => text.replace(`\n\n${REPLACES}`, '');

function userMessage(text: string): AnyInputItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

function labelled(file: string, label: (file: string) => string): { path: string; label: string } {
  return { path: file, label: label(file) };
}

/** The first `max` bytes of `data` as text, never splitting a UTF-8 sequence. */
function truncateUtf8(data: Buffer, max: number): { text: string; bytes: number } {
  if (data.length <= max) return { text: data.toString('utf8'), bytes: data.length };
  let end = Math.max(0, max);
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character's first byte.
  while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: data.subarray(0, end).toString('utf8'), bytes: end };
}

async function exists(file: string, probes?: Probes): Promise<boolean> {
  const signature = await signatureOf(file);
  probes?.set(file, signature);
  return signature !== undefined;
}
