import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type EditPlan, type FilePlan, hashText } from '../../edit';
import { globMatcher } from '../glob';
import type {
  AppliedPlan,
  Diagnostic,
  FoundFiles,
  TaskList,
  TaskRun,
  TextMatches,
  TextQuery,
  Workspace,
  WorkspaceCapabilities,
  WorkspaceFile,
} from '../workspace';
import { WorkspaceError } from '../workspaceError';
import { type Write, commitWrites } from './atomicWrites';
import { type Located, locate } from './diskPaths';
import { findOnPath } from './findExecutable';
import { listFiles } from './gitignoreFilter';
import { javascriptSearch } from './javascriptSearch';
import { ripgrepSearch } from './ripgrepSearch';
import { type TaskSpec, discoverTasks } from './taskDiscovery';
import { runTaskProcess } from './taskProcess';
import { readDiskText } from './textFiles';

// The Workspace port over plain files and processes: the headless CLI and the tests. A file's version is
// the hash of its text, so "changed since it was read" means changed on disk, whoever changed it.

/** Runs one discovered task (the VS Code adapter runs them in a terminal the user can watch). */
export type TaskRunner = (task: TaskSpec, timeoutMs: number) => Promise<TaskRun>;

export interface NodeWorkspaceOptions {
  /** The ripgrep binary: a path, `null` for the JavaScript search, or absent to look for `rg` on PATH. */
  ripgrep?: string | null;
  /** How a task's process is run; by default a child process in its own group. */
  runTask?: TaskRunner;
}

export class NodeWorkspace implements Workspace {
  readonly capabilities: WorkspaceCapabilities = { diagnostics: false, tasks: true };
  readonly name: string;

  private constructor(
    /** The real path of the root (symlinks resolved): every path is checked against it. */
    readonly root: string,
    /** undefined: no ripgrep, the JavaScript search runs. */
    readonly ripgrep: string | undefined,
    private readonly taskRunner: TaskRunner = runTaskProcess,
  ) {
    this.name = path.basename(root);
  }

  static async open(root: string, options: NodeWorkspaceOptions = {}): Promise<NodeWorkspace> {
    const real = await fs.realpath(root).catch(() => undefined);
    const stat = real === undefined ? undefined : await fs.stat(real);
    if (real === undefined || !stat?.isDirectory())
      throw new WorkspaceError('not_found', `${root} is not a folder; a workspace is a folder.`);
    const ripgrep = options.ripgrep === undefined ? await findOnPath('rg') : (options.ripgrep ?? undefined);
    return new NodeWorkspace(real, ripgrep, options.runTask);
  }

  async readFile(given: string): Promise<WorkspaceFile> {
    const file = await this.tryReadFile(given);
    if (!file) {
      const rel = (await locate(this.root, given, false)).path;
      throw new WorkspaceError('not_found', `${rel} does not exist; find_files can list what does.`, rel);
    }
    return file;
  }

  async tryReadFile(given: string): Promise<WorkspaceFile | undefined> {
    const where = await locate(this.root, given, false);
    const disk = await readDiskText(where.real, where.path);
    return disk && { path: where.path, text: disk.text, version: hashText(disk.text) };
  }

  async applyPlan(plan: EditPlan): Promise<AppliedPlan> {
    const writes: Write[] = [];
    const changed: string[] = [];
    const versions: Record<string, string> = {};
    const claimed = new Map<string, string>();
    const claim = async (given: string): Promise<Located & { bytes: Buffer | null; mode?: number; text?: string }> => {
      const where = await locate(this.root, given, true);
      const other = claimed.get(where.real);
      if (other !== undefined && other !== where.path)
        throw new WorkspaceError(
          'invalid_path',
          `${where.path} and ${other} are the same file; name it once.`,
          where.path,
        );
      claimed.set(where.real, where.path);
      const disk = await readDiskText(where.real, where.path);
      return { ...where, bytes: disk?.bytes ?? null, ...(disk ? { mode: disk.mode, text: disk.text } : {}) };
    };
    for (const file of plan.files) {
      if (file.noop) continue;
      const source = await claim(file.path);
      checkUnchanged(file, source);
      const bytes = file.after === null ? null : Buffer.from(file.after, 'utf8');
      if (file.op === 'move') {
        const target = await claim(file.moveTo ?? file.path);
        if (target.bytes !== null)
          throw new WorkspaceError(
            'changed_on_disk',
            `${target.path} exists now; the move would overwrite it.`,
            target.path,
          );
        writes.push({ real: target.real, bytes, original: null, ...(source.mode ? { mode: source.mode } : {}) });
        writes.push({ real: source.real, bytes: null, original: source.bytes });
        changed.push(source.path, target.path);
        versions[target.path] = hashText(file.after ?? '');
        continue;
      }
      writes.push({ real: source.real, bytes, original: source.bytes, ...(source.mode ? { mode: source.mode } : {}) });
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

  async findFiles(glob: string, maxResults: number): Promise<FoundFiles> {
    const pattern = glob.trim().endsWith('/') ? `${glob.trim()}**` : glob;
    if (pattern.trim() === '') throw new WorkspaceError('invalid_query', 'The glob is empty; try "**/*.ts".');
    const matches = globMatcher(pattern);
    const { files } = await listFiles(this.root);
    const found = files.filter((file) => matches(file));
    return { files: found.slice(0, maxResults), total: found.length };
  }

  searchText(query: TextQuery): Promise<TextMatches> {
    if (query.query === '') throw new WorkspaceError('invalid_query', 'The query is empty.');
    return this.ripgrep === undefined
      ? javascriptSearch(this.root, query)
      : ripgrepSearch(this.ripgrep, this.root, query);
  }

  /** No language service runs here: the tools say so, from `capabilities.diagnostics`. */
  diagnostics(): Promise<Diagnostic[]> {
    return Promise.resolve([]);
  }

  async listTasks(): Promise<TaskList> {
    const { tasks, problems } = await discoverTasks(this.root);
    return { tasks: tasks.map(({ label, detail }) => ({ label, detail })), problems };
  }

  async runTask(label: string, timeoutMs: number): Promise<TaskRun> {
    const { tasks } = await discoverTasks(this.root);
    const byLabel = new Map(tasks.map((task) => [task.label, task]));
    const order = runOrder(label, byLabel);
    const deadline = Date.now() + timeoutMs;
    let last: TaskRun | undefined;
    let output = '';
    for (const task of order) {
      last = await this.taskRunner(task, Math.max(1, deadline - Date.now()));
      output += order.length > 1 ? `> ${task.label}\n${last.output}` : last.output;
      if (last.exitCode !== 0) break;
    }
    const run = last as TaskRun;
    return { ...run, output, durationMs: Date.now() - (deadline - timeoutMs) };
  }
}

/** The task and its dependencies, dependencies first, each once; a cycle is refused. */
function runOrder(label: string, byLabel: ReadonlyMap<string, TaskSpec>): TaskSpec[] {
  const order: TaskSpec[] = [];
  const visiting = new Set<string>();
  const visit = (name: string, from?: string) => {
    const task = byLabel.get(name);
    if (!task) {
      const known = [...byLabel.keys()]
        .slice(0, 20)
        .map((l) => `'${l}'`)
        .join(', ');
      const why =
        from === undefined
          ? `There is no task '${name}'.`
          : `Task '${from}' depends on '${name}', which does not exist.`;
      throw new WorkspaceError(
        'task_not_found',
        `${why} ${known ? `Tasks: ${known}.` : 'This workspace has no tasks.'}`,
      );
    }
    if (order.includes(task)) return;
    if (visiting.has(name))
      throw new WorkspaceError('task_not_found', `Task '${name}' depends on itself (a dependsOn cycle).`);
    visiting.add(name);
    for (const dependency of task.dependsOn) visit(dependency, name);
    visiting.delete(name);
    order.push(task);
  };
  visit(label);
  return order;
}

/** The plan was made against the file as read; if its text differs now, nothing may be written. */
export function checkUnchanged(file: FilePlan, now: { path: string; bytes: Buffer | null; text?: string }): void {
  if (file.op === 'create') {
    if (now.bytes !== null)
      throw new WorkspaceError(
        'changed_on_disk',
        `${now.path} was created by someone else meanwhile; read it and edit it instead.`,
        now.path,
      );
    return;
  }
  if (now.text === undefined)
    throw new WorkspaceError(
      'changed_on_disk',
      `${now.path} was deleted since it was read; nothing was written.`,
      now.path,
    );
  const expected = file.version ?? (file.before === null ? undefined : hashText(file.before));
  if (expected !== undefined && hashText(now.text) !== expected)
    throw new WorkspaceError(
      'changed_on_disk',
      `${now.path} changed on disk since it was read; nothing was written. Read it again.`,
      now.path,
    );
}
