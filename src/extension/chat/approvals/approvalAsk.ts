import type { ApprovalRequest } from '../../../agent';
import { t } from '@vscode/l10n';
import type { ApprovalAsk, DiffFile } from '../../../protocol/chatView';
import { type ApprovalView, BUILTIN_TOOLS, type ToolRegistry } from '../../../tools';
import type { TaskInfo, Workspace } from '../../../workspace';

// What an approval card says before a call runs: the action in words ("Run task `npm: test` — `node
// --test`", "Apply edit to `src/cart.js`") and what it will run or change, so Allow is an informed click.

/** A code span that survives any backticks inside. */
function code(text: string): string {
  const fence = '`'.repeat(Math.max(1, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return fence.length > 1 || text.startsWith('`') || text.endsWith('`')
    ? `${fence} ${text} ${fence}`
    : `${fence}${text}${fence}`;
}

/** The command a task's detail names: `npm run test: node --test` runs `node --test`. */
export function taskCommand(detail: string): string {
  const npm = /^npm run \S+(?: \(in [^)]*\))?: (.+)$/s.exec(detail);
  return (npm?.[1] ?? detail).trim();
}

const FILE_VERBS: Record<DiffFile['op'], string> = {
  create: t('create'),
  update: t('update'),
  delete: t('delete'),
  move: t('move'),
};

/**
 * The ask for `request`, whose card says `summary` (a task's label, an edit's path) and shows `files` (an
 * edit's proposed diff). `task` is the workspace's task the summary names, looked up only for a task;
 * `tools` are the agent's, whose own `approval` says what a call of theirs must show.
 */
export function approvalAsk(
  request: ApprovalRequest,
  summary: string,
  files: readonly DiffFile[] | undefined,
  task: TaskInfo | undefined,
  tools: ToolRegistry = BUILTIN_TOOLS,
): ApprovalAsk {
  // What the tool itself says a person must see (a shell command's exact line and folder) comes first.
  const view = tools.approval(request.name, request.input);
  if (view && request.escalation) return escalationAsk(request, view);
  if (view) return { action: `${view.action} ${code(view.object)}`, detail: view.detail, effect: request.effect };
  if (request.effect === 'task') {
    const label = summary === '' ? request.name : summary;
    // Not one of the workspace's tasks: another tool that acts (an MCP server's, the editor's), shown with
    // its arguments, which are all there is to know of what it will do.
    if (!task) return { action: t('Run {0}', code(label)), detail: argumentsText(request.input), effect: 'task' };
    const command = taskCommand(task.detail);
    return {
      action: command ? t('Run task {0} — {1}', code(label), code(command)) : t('Run task {0}', code(label)),
      detail: task.detail,
      effect: 'task',
    };
  }
  const paths = (files ?? []).map((file) => (file.moveTo ? `${file.path} → ${file.moveTo}` : file.path));
  const target =
    paths.length === 1
      ? code(paths[0] as string)
      : paths.length > 1
        ? t('{0} files', paths.length)
        : summary
          ? code(summary)
          : t('the workspace');
  return {
    action: t('Apply edit to {0}', target),
    ...(files && files.length > 0
      ? {
          detail: files
            .map((file) => `${FILE_VERBS[file.op]} ${file.moveTo ? `${file.path} → ${file.moveTo}` : file.path}`)
            .join('\n'),
        }
      : {}),
    effect: 'write',
  };
}

/** The longest reason of the model's a card shows: a question, not an essay. */
const MAX_REASON = 600;

/**
 * A command the model asks to run outside the sandbox: what runs, and apart from it the model's reason, in its
 * own words (the tool's detail ends with it: it is taken off there so that it is shown once).
 */
function escalationAsk(request: ApprovalRequest, view: ApprovalView): ApprovalAsk {
  const reason = request.escalation?.justification?.trim();
  const said = reason ? `\n${t('The model says: {0}', reason)}` : '';
  const detail = said !== '' && view.detail.endsWith(said) ? view.detail.slice(0, -said.length) : view.detail;
  return {
    action: `${view.action} ${code(view.object)}`,
    detail,
    effect: request.effect,
    escalation: true,
    ...(reason ? { reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason } : {}),
  };
}

/** A call's arguments as a card shows them: indented JSON (or the text as given), cut at 2,000 characters. */
function argumentsText(input: string): string {
  let text = input;
  try {
    text = JSON.stringify(JSON.parse(input), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** The workspace's task `label` (its command, for the approval card), if it is found. */
export async function taskNamed(workspace: () => Promise<Workspace>, label: string): Promise<TaskInfo | undefined> {
  try {
    return (await (await workspace()).listTasks()).tasks.find((task) => task.label === label);
  } catch {
    return undefined;
  }
}
