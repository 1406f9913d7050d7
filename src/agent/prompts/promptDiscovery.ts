import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { within } from '../skills/skillDiscovery';
import { PROMPT_FILE_ENDING, type PromptFileHeader, parsePromptFile } from './promptFile';

// Where prompt files are found: `.github/prompts/*.prompt.md` in each workspace folder, as VS Code finds them by
// default (its `chat.promptFilesLocations` setting and the user profile's prompts are not read). Files are read in
// name order; two that give one `name` keep the first and report the second. A file a link leads out of the
// workspace folder is not read (it is not the team's). Nothing here throws: what cannot be used is a problem
// naming its file.

/** The prompt folder of a workspace folder. */
export const WORKSPACE_PROMPT_DIR = '.github/prompts';
/** A prompt file larger than this is not read. */
export const PROMPT_FILE_MAX_BYTES = 256 * 1024;

export interface PromptFile extends PromptFileHeader {
  /** The file, as the tools name it (workspace-relative). */
  label: string;
}

export interface PromptProblem {
  /** The file as the tools name it. */
  file: string;
  problem: string;
}

export interface FoundPrompts {
  prompts: PromptFile[];
  problems: PromptProblem[];
}

/** The prompt files of the workspace `folders` (a path each; in several, labels start with the folder's name). */
export async function findPromptFiles(folders: readonly string[]): Promise<FoundPrompts> {
  const found: FoundPrompts = { prompts: [], problems: [] };
  for (const folder of folders) {
    const root = await fs.realpath(folder).catch(() => path.resolve(folder));
    const prefix = folders.length > 1 ? `${path.basename(path.resolve(folder))}/` : '';
    const dir = path.join(root, WORKSPACE_PROMPT_DIR);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((entry) => entry.endsWith(PROMPT_FILE_ENDING)).sort())
      await take(root, path.join(dir, name), `${prefix}${WORKSPACE_PROMPT_DIR}/${name}`, found);
  }
  return found;
}

async function take(root: string, file: string, label: string, found: FoundPrompts): Promise<void> {
  const problem = (text: string) => void found.problems.push({ file: label, problem: text });
  const real = await fs.realpath(file).catch(() => undefined);
  if (real === undefined) return problem('it cannot be read: a broken link');
  if (!within(root, real)) return problem('it leads out of the workspace through a symbolic link: not used');
  let content: string;
  try {
    const stats = await fs.stat(real);
    if (!stats.isFile()) return;
    if (stats.size > PROMPT_FILE_MAX_BYTES)
      return problem(`it is larger than ${PROMPT_FILE_MAX_BYTES / 1024} KiB: not read`);
    content = await fs.readFile(real, 'utf8');
  } catch (error) {
    return problem(`it cannot be read: ${(error as Error).message}`);
  }
  const header = parsePromptFile(content, path.basename(file));
  if ('problem' in header) return problem(header.problem);
  const taken = found.prompts.find((prompt) => prompt.name === header.name);
  if (taken) return problem(`the name '${header.name}' is already ${taken.label}'s: not used`);
  found.prompts.push({ ...header, label });
}
