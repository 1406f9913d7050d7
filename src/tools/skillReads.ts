import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { within } from './pathOnDisk';

// read_file reads the workspace through the port, and nothing else, with one exception: a skill of the
// user's (`~/.agents/skills/NAME`, `~/.copilot/skills/NAME`, `~/.claude/skills/NAME`) lives in the home
// folder, and the model must read its SKILL.md, references and assets to use it. So the agent hands the tools
// the real paths of the user's skill folders it found for this task (src/agent/skills), and read_file reads a
// file by its absolute path when the file's real path — every link on the way followed, `..` taken as the
// kernel takes it — is inside one of them, and it has no other hard link. Anything else stays refused as
// before: the rest of the home folder, a link in a skill folder that leads out of it, `../` out of it.
// Read-only: no edit tool takes these paths (the port refuses them), and nothing runs by itself (a skill's
// scripts go through exec_command).

declare module './tool' {
  interface ToolContext {
    /**
     * The real paths of the user's skill folders found for this task: read_file may read files inside them by
     * their absolute paths. Absent or empty: the workspace alone.
     */
    skillFolders?: readonly string[];
  }
}

/** The most a file read from a skill folder may weigh (read_file then shows at most its own cap of it). */
export const SKILL_READ_MAX_BYTES = 8 * 1024 * 1024;

/** A file read from a skill folder. */
export interface SkillFolderFile {
  /** The path as given (absolute). */
  path: string;
  text: string;
}

/**
 * The file at the absolute path `given` when its real path is inside one of `folders` (real paths); undefined
 * for any other path, which the workspace then reads or refuses as it does.
 */
export async function readInSkillFolder(
  given: string,
  folders: readonly string[] | undefined,
): Promise<SkillFolderFile | undefined> {
  if (!folders || folders.length === 0 || !path.isAbsolute(given)) return undefined;
  const real = await fs.realpath(given).catch(() => undefined);
  if (real === undefined || !folders.some((folder) => within(folder, real))) return undefined;
  // The real path is read, not the given one: a link swapped in after the check is not followed through it.
  const stats = await fs.stat(real);
  if (!stats.isFile()) throw new Error(`'${given}' is not a file.`);
  // A hard link is not a path a realpath can follow: a file of elsewhere (~/.ssh/…) linked into the folder
  // would pass the check above. A skill's own files have one link each.
  if (stats.nlink > 1) throw new Error(`'${given}' has other hard links, so it may be a file of elsewhere: not read.`);
  if (stats.size > SKILL_READ_MAX_BYTES)
    throw new Error(`'${given}' is larger than ${SKILL_READ_MAX_BYTES / 1024 / 1024} MiB: not read.`);
  return { path: given, text: await fs.readFile(real, 'utf8') };
}
