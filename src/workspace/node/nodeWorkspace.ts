import * as path from 'node:path';
import { type EditPlan, hashText } from '../../edit';
import type * as Port from '../workspace';
import { WorkspaceError } from '../workspaceError';
import { type Write, commitWrites } from '../shared/atomicWrites';
import { type ConfinementExtras, DiskFolder, type TaskRunner, readFromDisk } from '../shared/diskFolder';
import { findOnPath } from './findExecutable';

// The Workspace port over plain files and processes: the headless CLI and the tests. A file's version is
// the hash of its text, so "changed since it was read" means changed on disk, whoever changed it. What it
// shares with the VS Code adapter (paths, reading, listing, search, tasks) is the DiskFolder of ../shared;
// its own is where ripgrep is found and how a plan is written (temp files, then renames).

export interface NodeWorkspaceOptions {
  /** The ripgrep binary: a path, `null` for the JavaScript search, or absent to look for `rg` on PATH. */
  ripgrep?: string | null;
  /** How a task's process is run; by default a child process in its own group. */
  runTask?: TaskRunner;
  /** What its confined commands may write besides the folder (a git worktree's own git folder). */
  confinement?: ConfinementExtras;
}

export class NodeWorkspace implements Port.Workspace {
  readonly capabilities: Port.WorkspaceCapabilities = { diagnostics: false, tasks: true };
  readonly name: string;
  /** The real path of the root (symlinks resolved): every path is checked against it. */
  readonly root: string;
  /** undefined: no ripgrep, the JavaScript search runs. */
  readonly ripgrep: string | undefined;

  private constructor(private readonly disk: DiskFolder) {
    this.name = disk.name;
    this.root = disk.root;
    this.ripgrep = disk.ripgrep;
  }

  static async open(root: string, options: NodeWorkspaceOptions = {}): Promise<NodeWorkspace> {
    const ripgrep = options.ripgrep === undefined ? await findOnPath('rg') : (options.ripgrep ?? undefined);
    return new NodeWorkspace(
      await DiskFolder.open(root, { ripgrep, runTask: options.runTask, confinement: options.confinement }),
    );
  }

  locate(given: string): Port.WorkspaceLocation {
    return this.disk.locate(given);
  }

  readFile(given: string): Promise<Port.WorkspaceFile> {
    return this.disk.readFile(given);
  }

  tryReadFile(given: string): Promise<Port.WorkspaceFile | undefined> {
    return this.disk.tryReadFile(given);
  }

  async applyPlan(plan: EditPlan): Promise<Port.AppliedPlan> {
    const writes: Write[] = [];
    const changed: string[] = [];
    const versions: Record<string, string> = {};
    const files = this.disk.planFiles(readFromDisk);
    for (const file of plan.files) {
      if (file.noop) continue;
      const source = await files.source(file);
      const original = source.now?.bytes ?? null;
      const mode = source.now?.mode ? { mode: source.now.mode } : {};
      const bytes = file.after === null ? null : Buffer.from(file.after, 'utf8');
      if (file.op === 'move') {
        const target = await files.moveTarget(file);
        writes.push({ real: target.real, bytes, original: null, ...mode });
        writes.push({ real: source.real, bytes: null, original });
        changed.push(source.path, target.path);
        versions[target.path] = hashText(file.after ?? '');
        continue;
      }
      writes.push({ real: source.real, bytes, original, ...mode });
      changed.push(source.path);
      if (file.after !== null) versions[source.path] = hashText(file.after);
    }
    try {
      await commitWrites(writes);
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      const message = (error as Error).message;
      const code = /changed while/.test(message) ? 'changed_on_disk' : 'io_error';
      throw new WorkspaceError(code, `Nothing was written: ${message.replaceAll(this.root + path.sep, '')}`);
    }
    return { changed, versions, diagnostics: [] };
  }

  findFiles(glob: string, maxResults: number): Promise<Port.FoundFiles> {
    return this.disk.findFiles(glob, maxResults);
  }

  searchText(query: Port.TextQuery): Promise<Port.TextMatches> {
    return this.disk.searchText(query);
  }

  /** No language service runs here: the tools say so, from `capabilities.diagnostics`. */
  diagnostics(): Promise<Port.Diagnostic[]> {
    return Promise.resolve([]);
  }

  listTasks(): Promise<Port.TaskList> {
    return this.disk.listTasks();
  }

  runTask(label: string, timeoutMs: number, options?: Port.TaskOptions): Promise<Port.TaskRun> {
    return this.disk.runTask(label, timeoutMs, options);
  }

  /** A child process of the user's shell, in its own process group (a timeout stops all it started). */
  runCommand(command: string, options: Port.CommandOptions): Promise<Port.TaskRun> {
    return this.disk.runCommand(command, options);
  }

  /** As `runCommand`, with a pipe to its standard input, read while it runs. */
  startCommand(command: string, options: Port.CommandOptions): Promise<Port.CommandProcess> {
    return this.disk.startCommand(command, options);
  }
}
