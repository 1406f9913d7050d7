import { type FilePlan, hashText } from '../../edit';
import { WorkspaceError } from '../workspaceError';
import { type Located, locateReal } from './diskPaths';

// The files one plan touches, claimed before anything is written, the same way in every adapter: each is
// located for writing (not under .git/, not out through a symbolic link), named once (two names of one
// real file are refused), read as it is now, and held to what the plan was computed against. How a file is
// read is the adapter's: the disk (Node), or what the user sees (VS Code's unsaved documents).

/** Reads a located file as it is now, or undefined when it does not exist. */
export type ReadNow<T extends { text: string }> = (where: Located) => Promise<T | undefined>;

/** A file a plan writes: where it is, and what it holds now (undefined: nothing is there). */
export interface Claimed<T> extends Located {
  now: T | undefined;
}

export class PlanFiles<T extends { text: string }> {
  /** Real path → the workspace path that claimed it. */
  private readonly claimed = new Map<string, string>();

  constructor(
    /** The real path of the root. */
    private readonly root: string,
    private readonly read: ReadNow<T>,
  ) {}

  /** The file a plan entry changes, as it is now; refused unless it is as the plan found it. */
  async source(file: FilePlan): Promise<Claimed<T>> {
    const source = await this.claim(file.path);
    checkUnchanged(file, source);
    return source;
  }

  /** Where a move goes; refused when a file is there now (the move would overwrite it). */
  async moveTarget(file: FilePlan): Promise<Claimed<T>> {
    const target = await this.claim(file.moveTo ?? file.path);
    if (target.now !== undefined)
      throw new WorkspaceError(
        'changed_on_disk',
        `${target.path} exists now; the move would overwrite it.`,
        target.path,
      );
    return target;
  }

  private async claim(given: string): Promise<Claimed<T>> {
    const where = locateReal(this.root, given, true);
    const other = this.claimed.get(where.real);
    if (other !== undefined && other !== where.path)
      throw new WorkspaceError(
        'invalid_path',
        `${where.path} and ${other} are the same file; name it once.`,
        where.path,
      );
    this.claimed.set(where.real, where.path);
    return { ...where, now: await this.read(where) };
  }
}

/** The plan was made against the file as read; if its text differs now, nothing may be written. */
function checkUnchanged(file: FilePlan, claimed: Claimed<{ text: string }>): void {
  const { path, now } = claimed;
  if (file.op === 'create') {
    if (now !== undefined)
      throw new WorkspaceError(
        'changed_on_disk',
        `${path} was created by someone else meanwhile; read it and edit it instead.`,
        path,
      );
    return;
  }
  if (now === undefined)
    throw new WorkspaceError('changed_on_disk', `${path} was deleted since it was read; nothing was written.`, path);
  const expected = file.version ?? (file.before === null ? undefined : hashText(file.before));
  if (expected !== undefined && hashText(now.text) !== expected)
    throw new WorkspaceError(
      'changed_on_disk',
      `${path} changed on disk since it was read; nothing was written. Read it again.`,
      path,
    );
}
