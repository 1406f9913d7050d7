import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { hashText } from '../../edit';
import { globMatcher } from '../glob';
import type { Confinement } from '../../sandbox';
import type {
  CommandOptions,
  CommandSandbox,
  CommandProcess,
  FoundFiles,
  TaskList,
  TaskOptions,
  TaskRun,
  TextMatches,
  TextQuery,
  WorkspaceFile,
  WorkspaceLocation,
} from '../workspace';
import { normalizeWorkspacePath } from '../workspacePath';
import { WorkspaceError } from '../workspaceError';
import { locateReal } from './diskPaths';
import { listFiles } from './gitignoreFilter';
import { javascriptSearch } from './javascriptSearch';
import { PlanFiles, type ReadNow } from './planFiles';
import { ripgrepSearch } from './ripgrepSearch';
import { type TaskSpec, discoverTasks } from './taskDiscovery';
import { startTaskProcess } from './commandProcess';
import { runTaskProcess } from './taskProcess';
import { type DiskText, readDiskText } from './textFiles';
import { userShell } from './userShell';

// One workspace folder on this machine's disk, as both adapters use it: paths checked against its real
// path, files read as exact text, listing and search honouring .gitignore (ripgrep, or the JavaScript
// search), and its tasks discovered and run. Each adapter adds how it writes (temp files and renames, or a
// WorkspaceEdit) and may read through its own lens (VS Code: the user's unsaved documents).

/** Runs one discovered task (the VS Code adapter runs them in a terminal the user can watch). */
export type TaskRunner = (task: TaskSpec, timeoutMs: number) => Promise<TaskRun>;

/** Starts a shell command as a session (`startCommand`): the VS Code adapter mirrors it in a terminal. */
export type CommandProcessStarter = (task: TaskSpec, timeoutMs: number) => CommandProcess;

export interface DiskFolderOptions {
  /** The ripgrep binary, or undefined for the JavaScript search. */
  ripgrep: string | undefined;
  /** How a task's process is run; by default a child process in its own group. */
  runTask?: TaskRunner;
  /** How a shell command (`runCommand`) is run; by default like a task. */
  runCommand?: TaskRunner;
  /** How a shell command that runs on (`startCommand`) is started; by default a child process with a stdin pipe. */
  startCommand?: CommandProcessStarter;
  /** The shell chosen for commands, asked at each one (VS Code's default terminal shell); else the user's. */
  commandShell?: () => string | undefined;
  /**
   * What every confined command of this folder may write, read or not see besides the folder itself: a git
   * worktree's own git folder (src/agent/worktrees/worktreeSandbox.ts).
   */
  confinement?: ConfinementExtras | undefined;
}

/** A confinement's parts beyond its policy and roots. */
export type ConfinementExtras = Omit<Confinement, 'policy' | 'roots'>;

/** A file as it is on disk: its exact text, bytes and mode. */
export const readFromDisk: ReadNow<DiskText> = (where) => readDiskText(where.real, where.path);

export class DiskFolder {
  readonly name: string;

  private constructor(
    /** The folder as opened (absolute, symlinks not resolved): where `locate` maps paths. */
    private readonly opened: string,
    /** The real path of the root (symlinks resolved): every path is checked against it. */
    readonly root: string,
    /** undefined: no ripgrep, the JavaScript search runs. */
    readonly ripgrep: string | undefined,
    private readonly taskRunner: TaskRunner = runTaskProcess,
    private readonly commandRunner: TaskRunner = runTaskProcess,
    private readonly commandShell: () => string | undefined = () => undefined,
    private readonly sessionStarter: CommandProcessStarter = startTaskProcess,
    private readonly extras: ConfinementExtras = {},
  ) {
    this.name = path.basename(root);
  }

  static async open(root: string, options: DiskFolderOptions): Promise<DiskFolder> {
    const real = await fs.realpath(root).catch(() => undefined);
    const stat = real === undefined ? undefined : await fs.stat(real);
    if (real === undefined || !stat?.isDirectory())
      throw new WorkspaceError('not_found', `${root} is not a folder; a workspace is a folder.`);
    return new DiskFolder(
      path.resolve(root),
      real,
      options.ripgrep,
      options.runTask,
      options.runCommand,
      options.commandShell,
      options.startCommand,
      options.confinement,
    );
  }

  /** The port's `locate`: the path as `readFile` normalises it, under the folder as opened. */
  locate(given: string): WorkspaceLocation {
    const rel = normalizeWorkspacePath(given, this.root.split(path.sep).join('/'));
    return { path: rel, root: this.opened, absolute: path.join(this.opened, ...rel.split('/')) };
  }

  async readFile(given: string, read: ReadNow<{ text: string }> = readFromDisk): Promise<WorkspaceFile> {
    const file = await this.tryReadFile(given, read);
    if (!file) {
      const rel = locateReal(this.root, given, false).path;
      throw new WorkspaceError('not_found', `${rel} does not exist; find_files can list what does.`, rel);
    }
    return file;
  }

  async tryReadFile(given: string, read: ReadNow<{ text: string }> = readFromDisk): Promise<WorkspaceFile | undefined> {
    const where = locateReal(this.root, given, false);
    const now = await read(where);
    return now && { path: where.path, text: now.text, version: hashText(now.text) };
  }

  /** The files of one plan, claimed as they are read by `read` (see planFiles.ts). */
  planFiles<T extends { text: string }>(read: ReadNow<T>): PlanFiles<T> {
    return new PlanFiles(this.root, read);
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

  async listTasks(): Promise<TaskList> {
    const { tasks, problems } = await discoverTasks(this.root);
    return { tasks: tasks.map(({ label, detail }) => ({ label, detail })), problems };
  }

  async runTask(label: string, timeoutMs: number, options: TaskOptions = {}): Promise<TaskRun> {
    const { tasks } = await discoverTasks(this.root);
    const byLabel = new Map(tasks.map((task) => [task.label, task]));
    const order = runOrder(label, byLabel);
    const deadline = Date.now() + timeoutMs;
    let last: TaskRun | undefined;
    let output = '';
    for (const task of order) {
      const confinement = confinementOf(options.sandbox, this.root, this.extras);
      last = await this.taskRunner({ ...task, confinement }, Math.max(1, deadline - Date.now()));
      output += order.length > 1 ? `> ${task.label}\n${last.output}` : last.output;
      if (last.exitCode !== 0) break;
    }
    const run = last as TaskRun;
    return { ...run, output, durationMs: Date.now() - (deadline - timeoutMs) };
  }

  /** The port's `runCommand`: `workdir` is checked like any path, and must be a folder. */
  async runCommand(command: string, options: CommandOptions): Promise<TaskRun> {
    return this.commandRunner(await this.commandAt(command, options), options.timeoutMs);
  }

  /** The port's `startCommand`: checked as `runCommand`, started with its standard input open. */
  async startCommand(command: string, options: CommandOptions): Promise<CommandProcess> {
    return this.sessionStarter(await this.commandAt(command, options), options.timeoutMs);
  }

  private async commandAt(command: string, options: CommandOptions): Promise<TaskSpec> {
    if (command.trim() === '') throw new WorkspaceError('invalid_query', 'The command is empty.');
    const given = options.workdir?.trim().replace(/^\.\/?$/, '') ?? '';
    const where = given === '' ? { path: '', real: this.root } : locateReal(this.root, given, false);
    const stat = await fs.stat(where.real).catch(() => undefined);
    if (!stat?.isDirectory())
      throw new WorkspaceError(
        'not_found',
        `${where.path === '' ? 'The workspace root' : where.path} is not a folder; workdir names a folder of the workspace.`,
        where.path,
      );
    return {
      ...commandTask(command, where.real, this.commandShell()),
      confinement: confinementOf(options.sandbox, this.root, this.extras),
    };
  }
}

/** The confinement a sandbox asks for, writing in `root` unless it names its folders (multi-root: all of them). */
function confinementOf(
  sandbox: CommandSandbox | undefined,
  root: string,
  extras: ConfinementExtras,
): Confinement | undefined {
  return sandbox && { ...extras, policy: sandbox.policy, roots: sandbox.roots ?? [root] };
}

/** A shell command as a task to run: in `cwd`, in the user's shell (or the one `chosen`). */
export function commandTask(command: string, cwd: string, chosen?: string): TaskSpec {
  return {
    label: command,
    detail: command,
    run: { kind: 'shell', line: command, ...userShell(chosen) },
    cwd,
    env: {},
    dependsOn: [],
  };
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
