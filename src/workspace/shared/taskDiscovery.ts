import * as path from 'node:path';
import { z } from 'zod';
import type { Confinement } from '../../sandbox';
import type { TaskInfo } from '../workspace';
import { listFiles } from './gitignoreFilter';
import { readJsonc } from './jsonc';
import { expandVariables } from './vscodeVariables';

// The workspace's tasks as VS Code names them: `.vscode/tasks.json` (JSON with comments) shell and process
// tasks, `"type": "npm"` tasks, and every npm script of the workspace's package.json files (`npm: test`, or
// `npm: test - packages/app` for a nested one). What the Node adapter cannot run (other task types, which
// need an extension) is left out rather than listed and then refused.

const CommandValue = z.union([z.string(), z.looseObject({ value: z.union([z.string(), z.array(z.string())]) })]);
const TaskOptions = z.looseObject({
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  shell: z.looseObject({ executable: z.string().optional(), args: z.array(z.string()).optional() }).optional(),
});
const PlatformPart = z.looseObject({
  command: CommandValue.optional(),
  args: z.array(CommandValue).optional(),
  options: TaskOptions.optional(),
});
const TaskEntry = PlatformPart.extend({
  label: z.string().optional(),
  taskName: z.string().optional(),
  type: z.string().optional(),
  script: z.string().optional(),
  path: z.string().optional(),
  detail: z.string().optional(),
  dependsOn: z.union([z.string(), z.array(z.string())]).optional(),
  linux: PlatformPart.optional(),
  osx: PlatformPart.optional(),
  windows: PlatformPart.optional(),
});
/** The parts of `.vscode/tasks.json` that decide what a task runs; anything else is kept and ignored. */
export const TasksFile = z.looseObject({
  options: TaskOptions.optional(),
  tasks: z.array(z.unknown()).optional(),
});
const PackageScripts = z.looseObject({ scripts: z.record(z.string(), z.unknown()).optional() });

export interface TaskSpec extends TaskInfo {
  /** How to start it: a command line for a shell, or an executable and its arguments. */
  run:
    | { kind: 'shell'; line: string; shell?: string; shellArgs?: string[] }
    | { kind: 'process'; file: string; args: string[] };
  cwd: string;
  env: Record<string, string>;
  /** Labels of the tasks that run first, in order. */
  dependsOn: string[];
  /** The OS sandbox its process runs in; absent: unconfined. */
  confinement?: Confinement | undefined;
}

export interface Discovered {
  tasks: TaskSpec[];
  /** Why a file or an entry was skipped, for the model and the log. */
  problems: string[];
}

const platformKey = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';

function commandText(value: z.infer<typeof CommandValue>): string {
  if (typeof value === 'string') return value;
  return Array.isArray(value.value) ? value.value.join(' ') : value.value;
}

/** Quotes an argument for a POSIX shell when it needs it, as VS Code's default (strong) quoting does. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A task's `${…}` variables, VS Code's way; one it does not know stays as written. */
function substitute(text: string, root: string): string {
  return expandVariables(text, { workspaceFolder: root, cwd: root }, (whole) => whole);
}

function npmTask(root: string, dir: string, script: string, label?: string, detail?: string): TaskSpec {
  const where = dir === '' ? '' : ` - ${dir}`;
  return {
    label: label ?? `npm: ${script}${where}`,
    detail: detail ?? `npm run ${script}${dir === '' ? '' : ` (in ${dir})`}`,
    run: { kind: 'process', file: process.platform === 'win32' ? 'npm.cmd' : 'npm', args: ['run', script] },
    cwd: path.join(root, dir),
    env: {},
    dependsOn: [],
  };
}

function fromEntry(
  root: string,
  raw: unknown,
  shared: z.infer<typeof TaskOptions> | undefined,
): TaskSpec | string | undefined {
  const parsed = TaskEntry.safeParse(raw);
  if (!parsed.success) return `a task entry is malformed (${parsed.error.issues[0]?.message ?? 'invalid'})`;
  const entry = parsed.data;
  const own = entry[platformKey];
  const options = { ...shared, ...entry.options, ...own?.options };
  const env = { ...shared?.env, ...entry.options?.env, ...own?.options?.env };
  const dependsOn =
    entry.dependsOn === undefined ? [] : typeof entry.dependsOn === 'string' ? [entry.dependsOn] : entry.dependsOn;
  if (entry.type === 'npm') {
    if (entry.script === undefined) return undefined;
    const dir = (entry.path ?? '').replace(/\/$/, '');
    const task = npmTask(root, dir, entry.script, entry.label, entry.detail);
    return { ...task, env, dependsOn };
  }
  const label = entry.label ?? entry.taskName;
  if (label === undefined) return undefined;
  const command = own?.command ?? entry.command;
  const args = (own?.args ?? entry.args ?? []).map((arg) => substitute(commandText(arg), root));
  const cwd = path.resolve(root, substitute(options.cwd ?? root, root));
  const base = {
    label,
    cwd,
    env: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(v, root)])),
    dependsOn,
  };
  if (command === undefined) {
    // A task that only groups others (dependsOn) runs nothing itself.
    if (dependsOn.length === 0) return undefined;
    return { ...base, detail: entry.detail ?? `runs ${dependsOn.join(', ')}`, run: { kind: 'shell', line: 'true' } };
  }
  const text = substitute(commandText(command), root);
  if (entry.type === 'process')
    return { ...base, detail: entry.detail ?? [text, ...args].join(' '), run: { kind: 'process', file: text, args } };
  if (entry.type !== 'shell' && entry.type !== undefined) return undefined;
  const line = [text, ...args.map(shellQuote)].join(' ');
  const shell = options.shell;
  return {
    ...base,
    detail: entry.detail ?? line,
    run: {
      kind: 'shell',
      line,
      ...(shell?.executable ? { shell: shell.executable } : {}),
      ...(shell?.args ? { shellArgs: shell.args } : {}),
    },
  };
}

async function tasksJson(root: string, problems: string[]): Promise<TaskSpec[]> {
  const { value, problem } = await readJsonc(path.join(root, '.vscode', 'tasks.json'));
  if (problem) problems.push(`.vscode/tasks.json is not valid JSON: ${problem}`);
  if (value === undefined) return [];
  const file = TasksFile.safeParse(value);
  if (!file.success) {
    problems.push(`.vscode/tasks.json: ${file.error.issues[0]?.message ?? 'unexpected shape'}`);
    return [];
  }
  const tasks: TaskSpec[] = [];
  for (const raw of file.data.tasks ?? []) {
    const task = fromEntry(root, raw, file.data.options);
    if (typeof task === 'string') problems.push(`.vscode/tasks.json: ${task}`);
    else if (task) tasks.push(task);
  }
  return tasks;
}

async function npmScripts(root: string, problems: string[]): Promise<TaskSpec[]> {
  const { files } = await listFiles(root);
  const manifests = files.filter(
    (file) => (file === 'package.json' || file.endsWith('/package.json')) && !file.split('/').includes('node_modules'),
  );
  const tasks: TaskSpec[] = [];
  for (const manifest of manifests) {
    const { value, problem } = await readJsonc(path.join(root, manifest));
    if (problem) problems.push(`${manifest} is not valid JSON: ${problem}`);
    const parsed = PackageScripts.safeParse(value);
    if (!parsed.success) continue;
    const dir = path.posix.dirname(manifest) === '.' ? '' : path.posix.dirname(manifest);
    for (const [script, command] of Object.entries(parsed.data.scripts ?? {})) {
      const task = npmTask(root, dir, script);
      tasks.push(typeof command === 'string' ? { ...task, detail: `${task.detail}: ${command}` } : task);
    }
  }
  return tasks;
}

/** Every task of the workspace: tasks.json's first (a label defined there wins), then npm scripts. */
export async function discoverTasks(root: string): Promise<Discovered> {
  const problems: string[] = [];
  const tasks = await tasksJson(root, problems);
  const labels = new Set(tasks.map((task) => task.label));
  for (const task of await npmScripts(root, problems)) if (!labels.has(task.label)) tasks.push(task);
  return { tasks, problems };
}
