import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { WorktreeError } from './worktreeError';

// What Loopwire keeps of each worktree it made, one JSON file per worktree in the repository's common git
// folder (`.git/loopwire/worktrees/`): beside what it describes, gone with the repository, and out of reach
// of a worktree task's sandbox, which writes only the worktree and its own `.git/worktrees/ID` (so the task
// cannot move the base its changes are measured from, nor mark them applied).

export const WorktreeRecord = z.strictObject({
  name: z.string(),
  branch: z.string(),
  /** The worktree's folder (absolute). */
  path: z.string(),
  /** Its own git folder, `.git/worktrees/ID` (absolute). */
  gitDir: z.string(),
  /** The tree its changes are measured from: HEAD's, or HEAD's with the user's changes carried over. */
  base: z.string(),
  /** The commit the worktree was made from. */
  head: z.string(),
  carried: z.boolean(),
  created: z.string(),
  /** The sha256 of the changes last applied to the workspace: those are no longer unapplied. */
  applied: z.string().optional(),
});
export type WorktreeRecord = z.infer<typeof WorktreeRecord>;

function storeFolder(commonDir: string): string {
  return path.join(commonDir, 'loopwire', 'worktrees');
}

function recordFile(commonDir: string, name: string): string {
  return path.join(storeFolder(commonDir), `${encodeURIComponent(name)}.json`);
}

/** The ref that keeps the base tree from git's garbage collection for as long as the worktree lives. */
export function baseRef(name: string): string {
  return `refs/loopwire/base/${name}`;
}

export function writeRecord(commonDir: string, record: WorktreeRecord): void {
  const file = recordFile(commonDir, record.name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(temp, file);
}

export function removeRecord(commonDir: string, name: string): void {
  fs.rmSync(recordFile(commonDir, name), { force: true });
}

/** The record of worktree `name`; a not_found error naming the ones there are. */
export function readRecord(commonDir: string, name: string): WorktreeRecord {
  const file = recordFile(commonDir, name);
  if (!fs.existsSync(file)) {
    const known = listRecords(commonDir).map((r) => r.name);
    const hint = known.length ? ` Loopwire's worktrees here: ${known.join(', ')}.` : ' Loopwire has made none here.';
    throw new WorktreeError('not_found', `No worktree named "${name}" in this repository.${hint}`);
  }
  return parseRecord(file);
}

function parseRecord(file: string): WorktreeRecord {
  const parsed = WorktreeRecord.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new WorktreeError('git_failed', `${file} is not a worktree record: ${parsed.error.message}`);
  return parsed.data;
}

/** Every record of the repository, by name; an unreadable file is skipped rather than failing the list. */
export function listRecords(commonDir: string): WorktreeRecord[] {
  const folder = storeFolder(commonDir);
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .filter((entry) => entry.endsWith('.json'))
    .flatMap((entry) => {
      try {
        return [parseRecord(path.join(folder, entry))];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
