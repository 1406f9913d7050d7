import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

// A throwaway folder under the OS temp directory for a test: optionally a copy of a folder (`from`), then
// the given files written over it, and removed after. `tempWorkspace` for one made and removed by hand,
// `useTempWorkspace` for one made and removed by mocha's hooks.

export interface TempWorkspace {
  /** The folder, with symlinks resolved (macOS's /var is /private/var), so it compares equal to realpaths. */
  readonly dir: string;
  /** The absolute path of `rel` (slash-separated) inside the folder. */
  path(rel: string): string;
  read(rel: string): Promise<string>;
  /** Writes `text` at `rel`, making its folders. */
  write(rel: string, text: string): Promise<void>;
  /** Removes the folder and everything in it; removing twice is harmless. */
  remove(): Promise<void>;
}

export interface TempWorkspaceOptions {
  /** A folder whose contents are copied in first. */
  from?: string;
  /** The start of the folder's name, after `loopwire-`. */
  prefix?: string;
}

/** A fresh folder holding `files` (slash-separated relative path → text), over a copy of `from` if given. */
export async function tempWorkspace(
  files: Record<string, string> = {},
  { from, prefix = 'test' }: TempWorkspaceOptions = {},
): Promise<TempWorkspace> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `loopwire-${prefix}-`)));
  const at = (rel: string) => path.join(dir, ...rel.split('/'));
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(at(rel)), { recursive: true });
    await fs.writeFile(at(rel), text);
  };
  if (from !== undefined) await fs.cp(from, dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) await write(rel, text);
  return {
    dir,
    path: at,
    read: (rel) => fs.readFile(at(rel), 'utf8'),
    write,
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/**
 * A `tempWorkspace` made in a `beforeEach` and removed in an `afterEach` (or, with `each: false`, once for the
 * suite in `before`/`after`). Read `dir`, `path`, … from the returned object inside tests and hooks. Call it
 * where its hooks should run: mocha runs a suite's hooks in the order they were registered.
 */
export function useTempWorkspace(
  files: Record<string, string> = {},
  { each = true, ...options }: TempWorkspaceOptions & { each?: boolean } = {},
): TempWorkspace {
  let current: TempWorkspace | undefined;
  const get = (): TempWorkspace => {
    if (!current) throw new Error('useTempWorkspace: the folder exists only inside tests and their hooks');
    return current;
  };
  const make = async () => {
    current = await tempWorkspace(files, options);
  };
  const drop = async () => {
    await current?.remove();
    current = undefined;
  };
  if (each) {
    beforeEach(make);
    afterEach(drop);
  } else {
    before(make);
    after(drop);
  }
  return {
    get dir() {
      return get().dir;
    },
    path: (rel) => get().path(rel),
    read: (rel) => get().read(rel),
    write: (rel, text) => get().write(rel, text),
    remove: () => get().remove(),
  };
}
