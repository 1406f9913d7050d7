// The tasks: each folder of test/eval/tasks with a task.json, its project (fixture/), its check (check.js)
// and its scripted solution (solution.json, a scenario file of the embedded backend: docs/backend.md).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadScenarioFile } from '../../src/server/scenarioFile';
import { UsageError } from './evalArgs';
import { type EvalTask, TaskFile } from './evalTypes';

export const TASKS_DIR = path.join(__dirname, 'tasks');

/** Every task, by name; only `wanted` when it names some (an unknown name is an error naming the known ones). */
export function loadTasks(wanted: readonly string[], dir: string = TASKS_DIR): EvalTask[] {
  const all = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, 'task.json')))
    .map((entry) => loadTask(path.join(dir, entry.name)))
    .sort((a, b) => a.name.localeCompare(b.name));
  const unknown = wanted.filter((name) => !all.some((task) => task.name === name));
  if (unknown.length > 0)
    throw new UsageError(
      `no task ${unknown.join(', ')} in ${dir}; the tasks: ${all.map((task) => task.name).join(', ')}`,
    );
  return wanted.length === 0 ? all : all.filter((task) => wanted.includes(task.name));
}

/** One task's folder, read and checked: its files are there and its solution answers its prompt. */
export function loadTask(dir: string): EvalTask {
  const name = path.basename(dir);
  const file = path.join(dir, 'task.json');
  const parsed = TaskFile.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  const task: EvalTask = {
    ...parsed.data,
    name,
    dir,
    fixture: path.join(dir, 'fixture'),
    check: path.join(dir, 'check.js'),
    solution: path.join(dir, 'solution.json'),
  };
  for (const needed of [task.fixture, task.check, task.solution])
    if (!fs.existsSync(needed)) throw new Error(`task ${name}: ${path.relative(dir, needed)} is missing`);
  const answers = loadScenarioFile(task.solution).scenarios.some((scenario) =>
    new RegExp(scenario.match, 'i').test(task.prompt),
  );
  if (!answers) throw new Error(`task ${name}: no scenario of solution.json matches its prompt`);
  return task;
}
