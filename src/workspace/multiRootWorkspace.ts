import type { EditPlan, FilePlan } from '../edit';
import type * as Port from './workspace';
import { WorkspaceError } from './workspaceError';

// A multi-root window as one Workspace: every path starts with its folder's name (`api/src/app.ts`), as VS
// Code shows them, and each call goes to that folder's adapter. A glob or an include that starts with a
// folder name searches that folder only; any other searches them all. One edit stays within one folder,
// where it is all or nothing.

export interface NamedRoot {
  name: string;
  workspace: Port.Workspace;
}

const prefix = (name: string, path: string) => (path === '' ? name : `${name}/${path}`);

export class MultiRootWorkspace implements Port.Workspace {
  readonly name: string;
  readonly capabilities: Port.WorkspaceCapabilities;
  private readonly byName: ReadonlyMap<string, Port.Workspace>;

  constructor(private readonly roots: readonly NamedRoot[]) {
    this.byName = new Map(roots.map((root) => [root.name, root.workspace]));
    if (this.byName.size !== roots.length) throw new Error('two workspace folders have the same name');
    this.name = roots.map((root) => root.name).join(', ');
    this.capabilities = {
      diagnostics: roots.every((root) => root.workspace.capabilities.diagnostics),
      tasks: roots.every((root) => root.workspace.capabilities.tasks),
      writes: roots.every((root) => root.workspace.capabilities.writes !== false),
      commands: roots.every((root) => root.workspace.capabilities.commands !== false),
    };
  }

  /** The folder's own location of the path, named with the folder's name as every path here is. */
  locate(path: string): Port.WorkspaceLocation {
    const [root, rest] = this.split(path);
    const location = root.workspace.locate(rest);
    return { ...location, path: prefix(root.name, location.path) };
  }

  async readFile(path: string): Promise<Port.WorkspaceFile> {
    const [root, rest] = this.split(path);
    return this.named(root, await root.workspace.readFile(rest));
  }

  async tryReadFile(path: string): Promise<Port.WorkspaceFile | undefined> {
    const [root, rest] = this.split(path);
    const file = await root.workspace.tryReadFile(rest);
    return file && this.named(root, file);
  }

  async applyPlan(plan: EditPlan): Promise<Port.AppliedPlan> {
    const touched = new Set<NamedRoot>();
    const files: FilePlan[] = plan.files.map((file) => {
      const [root, path] = this.split(file.path);
      touched.add(root);
      if (file.moveTo === undefined) return { ...file, path };
      const [target, moveTo] = this.split(file.moveTo);
      touched.add(target);
      return { ...file, path, moveTo };
    });
    const [only, ...others] = [...touched];
    if (!only) return { changed: [], versions: {}, diagnostics: [] };
    if (others.length > 0)
      throw new WorkspaceError(
        'invalid_path',
        `One edit changes the files of one workspace folder (this one touches ${[...touched].map((r) => r.name).join(' and ')}); make one edit per folder.`,
      );
    const applied = await only.workspace.applyPlan({ ...plan, files });
    return {
      changed: applied.changed.map((path) => prefix(only.name, path)),
      versions: Object.fromEntries(Object.entries(applied.versions).map(([path, v]) => [prefix(only.name, path), v])),
      diagnostics: applied.diagnostics.map((d) => ({ ...d, path: prefix(only.name, d.path) })),
    };
  }

  async findFiles(glob: string, maxResults: number): Promise<Port.FoundFiles> {
    const files: string[] = [];
    let total = 0;
    for (const [root, pattern] of this.scoped(glob)) {
      const found = await root.workspace.findFiles(pattern, maxResults);
      total += found.total;
      files.push(...found.files.map((file) => prefix(root.name, file)));
    }
    files.sort();
    return { files: files.slice(0, maxResults), total };
  }

  async searchText(query: Port.TextQuery): Promise<Port.TextMatches> {
    const scopes =
      query.include === undefined ? this.roots.map((root) => [root, undefined] as const) : this.scoped(query.include);
    const results = await Promise.all(
      scopes.map(async ([root, include]) => {
        const result = await root.workspace.searchText({ ...query, ...(include === undefined ? {} : { include }) });
        return { ...result, matches: result.matches.map((m) => ({ ...m, path: prefix(root.name, m.path) })) };
      }),
    );
    const matches = results
      .flatMap((result) => result.matches)
      .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
    return {
      matches: matches.slice(0, query.maxResults),
      total: results.reduce((sum, result) => sum + result.total, 0),
      totalIsLowerBound: results.some((result) => result.totalIsLowerBound),
      files: results.reduce((sum, result) => sum + result.files, 0),
      engine: results.every((result) => result.engine === 'ripgrep') ? 'ripgrep' : 'javascript',
    };
  }

  async diagnostics(path?: string): Promise<Port.Diagnostic[]> {
    if (path !== undefined) {
      const [root, rest] = this.split(path);
      return (await root.workspace.diagnostics(rest)).map((d) => ({ ...d, path: prefix(root.name, d.path) }));
    }
    const all = await Promise.all(
      this.roots.map(async (root) =>
        (await root.workspace.diagnostics()).map((d) => ({ ...d, path: prefix(root.name, d.path) })),
      ),
    );
    return all.flat();
  }

  /** Every folder's tasks; a label two folders share is told apart as `label (folder)`. */
  async listTasks(): Promise<Port.TaskList> {
    const lists = await Promise.all(this.roots.map(async (root) => ({ root, list: await root.workspace.listTasks() })));
    const counts = new Map<string, number>();
    for (const { list } of lists)
      for (const task of list.tasks) counts.set(task.label, (counts.get(task.label) ?? 0) + 1);
    return {
      tasks: lists.flatMap(({ root, list }) =>
        list.tasks.map((task) => ({
          ...task,
          label: (counts.get(task.label) ?? 0) > 1 ? `${task.label} (${root.name})` : task.label,
        })),
      ),
      problems: lists.flatMap(({ root, list }) => list.problems.map((problem) => `${root.name}: ${problem}`)),
    };
  }

  async runTask(label: string, timeoutMs: number, given: Port.TaskOptions = {}): Promise<Port.TaskRun> {
    const options = { sandbox: this.everyFolder(given.sandbox) };
    const scoped = /^(.*) \(([^()]+)\)$/.exec(label);
    const named = scoped ? this.byName.get(scoped[2] ?? '') : undefined;
    if (scoped && named) return named.runTask(scoped[1] ?? '', timeoutMs, options);
    for (const root of this.roots) {
      const { tasks } = await root.workspace.listTasks();
      if (tasks.some((task) => task.label === label)) return root.workspace.runTask(label, timeoutMs, options);
    }
    return (this.roots[0] as NamedRoot).workspace.runTask(label, timeoutMs, options);
  }

  /** In the folder `workdir` names (`folder/sub`), or the first folder's root. */
  runCommand(command: string, options: Port.CommandOptions): Promise<Port.TaskRun> {
    const sandbox = this.everyFolder(options.sandbox);
    if (options.workdir === undefined || options.workdir.replace(/^\.\/?/, '') === '')
      return (this.roots[0] as NamedRoot).workspace.runCommand(command, { timeoutMs: options.timeoutMs, sandbox });
    const [root, rest] = this.split(options.workdir);
    return root.workspace.runCommand(command, { ...options, workdir: rest, sandbox });
  }

  /** As `runCommand`, where the folder's adapter can start a session. */
  async startCommand(command: string, options: Port.CommandOptions): Promise<Port.CommandProcess> {
    const [root, rest] =
      options.workdir === undefined || options.workdir.replace(/^\.\/?/, '') === ''
        ? [this.roots[0] as NamedRoot, undefined]
        : this.split(options.workdir);
    if (!root.workspace.startCommand)
      throw new WorkspaceError('io_error', `The folder ${root.name} cannot run a command in the background.`);
    const sandbox = this.everyFolder(options.sandbox);
    return root.workspace.startCommand(command, { timeoutMs: options.timeoutMs, workdir: rest, sandbox });
  }

  /** A sandbox that lets a command write in every folder of the workspace, not only the one it runs in. */
  private everyFolder(sandbox: Port.CommandSandbox | undefined): Port.CommandSandbox | undefined {
    return sandbox && { ...sandbox, roots: this.roots.map((root) => root.workspace.locate('.loopwire-root').root) };
  }

  private split(path: string): [NamedRoot, string] {
    const normalized = path.replace(/\\/g, '/').replace(/^\.\//, '');
    const slash = normalized.indexOf('/');
    const head = slash === -1 ? normalized : normalized.slice(0, slash);
    const root = this.roots.find((candidate) => candidate.name === head);
    if (!root)
      throw new WorkspaceError(
        'not_found',
        `In a workspace of several folders, paths start with the folder's name (${this.roots.map((r) => r.name).join(', ')}): '${path}' does not.`,
        path,
      );
    return [root, slash === -1 ? '' : normalized.slice(slash + 1)];
  }

  /** The folders a glob applies to, and the glob within each. */
  private scoped(glob: string): Array<readonly [NamedRoot, string]> {
    const slash = glob.indexOf('/');
    const head = slash === -1 ? '' : glob.slice(0, slash);
    const root = this.roots.find((candidate) => candidate.name === head);
    if (root) return [[root, glob.slice(slash + 1)]];
    return this.roots.map((candidate) => [candidate, glob] as const);
  }

  private named(root: NamedRoot, file: Port.WorkspaceFile): Port.WorkspaceFile {
    return { ...file, path: prefix(root.name, file.path) };
  }
}
