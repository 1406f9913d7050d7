import { t } from '@vscode/l10n';
import { z } from 'zod';
import { defineTool, success } from './tool';
import { refusal } from './toolErrors';

export const ListTasksArgs = z.object({});

export const listTasksTool = defineTool({
  name: 'list_tasks',
  description:
    'The workspace\'s tasks (.vscode/tasks.json and npm scripts, named as VS Code names them, e.g. "npm: test"), one per line: label — what it runs.',
  args: ListTasksArgs,
  effect: 'read',
  requires: 'tasks',
  async run(_args, { workspace }) {
    if (!workspace.capabilities.tasks)
      return refusal('Tasks are not available in this workspace.', () =>
        t('Tasks are not available in this workspace.'),
      );
    const { tasks, problems } = await workspace.listTasks();
    const notes = problems.map((problem) => `(skipped: ${problem})`).join('\n');
    if (tasks.length === 0)
      return success(
        ['This workspace defines no tasks (no .vscode/tasks.json tasks, no npm scripts).', notes]
          .filter(Boolean)
          .join('\n'),
      );
    const list = `${tasks.map((task) => `${task.label} — ${task.detail}`).join('\n')}\n(${tasks.length} task${tasks.length === 1 ? '' : 's'})`;
    return success([list, notes].filter(Boolean).join('\n'));
  },
});
