import { z } from 'zod';
import { argumentPaths } from './callPaths';
import { summarizeArgument } from './callSummary';
import { readInSkillFolder } from './skillReads';
import { defineTool, success } from './tool';

// read_file: the lines of a text file, as they are (no line-number prefixes, so what the model copies into
// an edit is the file's own text), with a footer that says which lines these are of how many.

/** The one cap: characters of file text in one answer (about 25k tokens). */
export const READ_MAX_CHARS = 100_000;

export const ReadFileArgs = z.object({
  path: z.string().min(1).describe('Workspace-relative path of a text file.'),
  start_line: z.number().int().min(1).optional().describe('First line to read (1-based). Default: 1.'),
  end_line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Last line to read (inclusive). Default: the end, within the size cap.'),
});

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    "Read a text file of the workspace (the editor's unsaved text, where there is one). Returns the lines " +
    'exactly as they are, then a footer "lines X–Y of N". Long files are cut at a size cap: continue with ' +
    'start_line. Read a file before editing it.',
  args: ReadFileArgs,
  effect: 'read',
  summarize: summarizeArgument('path'),
  paths: argumentPaths('path'),
  async run(args, { workspace, reads, skillFolders }) {
    // A file of a user's skill folder is read as it is on disk, and not recorded: no edit may follow the read.
    let file: { path: string; text: string } | undefined = await readInSkillFolder(args.path, skillFolders);
    if (!file) {
      const read = await workspace.readFile(args.path);
      reads.record(read);
      file = read;
    }
    const lines = splitLines(file.text.replace(/^\uFEFF/, ''));
    const total = lines.length;
    if (total === 0) return success(`(${file.path} is empty: 0 lines)`);
    const start = args.start_line ?? 1;
    if (start > total)
      return success(`(${file.path} has ${total} line${total === 1 ? '' : 's'}; start_line ${start} is past its end)`);
    const last = Math.min(args.end_line ?? total, total);
    if (last < start) return success(`(end_line ${last} is before start_line ${start}: nothing to read)`);
    let body = '';
    let shown = start - 1;
    let clipped = false;
    for (let index = start - 1; index < last; index++) {
      const line = lines[index] as string;
      if (body.length + line.length + 1 > READ_MAX_CHARS) {
        if (shown === start - 1) {
          // One line longer than the cap: show its start rather than nothing.
          body = `${line.slice(0, READ_MAX_CHARS)}\n`;
          shown = index + 1;
          clipped = true;
        }
        break;
      }
      body += `${line}\n`;
      shown = index + 1;
    }
    const range = `lines ${start}–${shown} of ${total}`;
    let footer = `(${file.path}: ${range}`;
    if (clipped) footer += `; line ${shown} is ${lines[shown - 1]?.length} characters, cut at ${READ_MAX_CHARS}`;
    else if (shown < last) footer += `; cut at ${READ_MAX_CHARS} characters — continue with start_line: ${shown + 1}`;
    else if (shown < total) footer += `; more with start_line: ${shown + 1}`;
    return success(`${body}${footer})`);
  },
});

/** Lines without their endings; a final newline does not start another line. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
