import * as path from 'node:path';
import { t } from '@vscode/l10n';
import { z } from 'zod';
import { type SandboxPolicy, denialNote } from '../sandbox';
import type { CommandSandbox, Workspace } from '../workspace';
import { jsonArguments, stringArgument } from './callSummary';
import { type CommandPlace, type CommandVerdict, judgeCommand } from './commandSafety';
import { TASK_DEFAULT_TIMEOUT_S, timedRun, timeoutArgument } from './runReport';
import { maxOutputArgument, sessionReport, yieldArgument } from './backgroundReport';
import type { BackgroundCommands } from './backgroundCommands';
import { type ToolResult, defineTool } from './tool';
import { refusal } from './toolErrors';

// A shell command, as Codex's `exec_command` (the names are a contract: GPT models are trained on them). It
// runs in the user's shell in a workspace folder, where the user can see it (VS Code: a terminal named
// Loopwire). Where the host keeps sessions, one still running at `yield_time_ms` goes on in the background,
// its standard input open to write_stdin (Codex's unified exec); elsewhere it runs to its end with nothing on
// its standard input. It is a `task` for approvals, so `ask` shows the exact
// command first and `read-only` refuses it — unless it only reads (commandSafety.ts): then it runs in every
// mode, and a git command among it runs with the repository's programs turned off, as the run's first line says.

/** How long a command runs before the call answers and leaves it in the background (Codex's default). */
const EXEC_YIELD_MS = 10_000;

export const ExecCommandArgs = z.object({
  cmd: z.string().min(1).describe('The command line, run by the user\'s shell (e.g. "npm test -- --grep cart").'),
  workdir: z
    .string()
    .optional()
    .describe('The folder to run it in, relative to the workspace root (default: the root).'),
  timeout_s: timeoutArgument('command'),
  yield_time_ms: yieldArgument(EXEC_YIELD_MS),
  max_output_tokens: maxOutputArgument(),
  // Codex's names for asking to leave the sandbox (GPT models are trained on them).
  sandbox_permissions: z
    .enum(['use_default', 'require_escalated'])
    .optional()
    .describe(
      '"require_escalated" asks the user to run it outside the sandbox (network, writes outside the workspace); default "use_default".',
    ),
  justification: z
    .string()
    .optional()
    .describe('With require_escalated: one question to the user saying why, e.g. "Install the dependencies from npm?"'),
  prefix_rule: z
    .array(z.string())
    .optional()
    .describe('With require_escalated: a short prefix the user may allow for good, e.g. ["npm", "install"].'),
});

/** The parameters that ask to leave the sandbox. */
const ESCALATION = { sandbox_permissions: true, justification: true, prefix_rule: true } as const;

export const execCommandTool = defineTool({
  name: 'exec_command',
  description:
    "Run a shell command in the workspace and return its exit code and output; one still running after yield_time_ms returns its output so far and a session_id (see write_stdin). Past timeout_s it is stopped with everything it started. Prefer the workspace's tasks (run_task) when one does the job.",
  args: ExecCommandArgs,
  // The budget the schema names is the model's own (128k families keep less of an output).
  // Leaving the sandbox is offered only where there is one to leave.
  offeredArgs: ({ outputTokens, sandbox }) =>
    (sandbox ? ExecCommandArgs : ExecCommandArgs.omit(ESCALATION)).extend({
      max_output_tokens: maxOutputArgument(outputTokens),
    }),
  effect: 'task',
  requires: 'commands',
  outputShape: 'tail',
  summarize: (input) => stringArgument(input, 'cmd', { open: true }) ?? '',
  approval(input) {
    const cmd = stringArgument(input, 'cmd');
    if (cmd === undefined) return undefined;
    // Shown on the approval card only (the model never reads it), so in the person's language.
    const workdir = stringArgument(input, 'workdir') || t('the workspace root');
    const detail = `$ ${cmd}\n${t('(in {0})', workdir)}`;
    const escalation = escalationOf(jsonArguments(input));
    if (!escalation) return { action: t('Run command'), object: cmd, detail };
    // The model's reason is its own words: shown as it wrote them, marked as the model's.
    const why = escalation.justification ? `\n${t('The model says: {0}', escalation.justification)}` : '';
    return { action: t('Run outside the sandbox'), object: cmd, detail: `${detail}${why}` };
  },
  async run(args, context) {
    const { workspace } = context;
    if (workspace.capabilities.commands === false)
      return refusal('Shell commands are not available in this workspace.', () =>
        t('Shell commands are not available in this workspace.'),
      );
    // The line judged safe is the one that runs, rewritten; any other (or one the parser failed on) as approved.
    const { run: line } = await judgeAt(placeOf(workspace, args.workdir), args.cmd).catch(() => ({ run: args.cmd }));
    const what = line === args.cmd ? 'The command' : `The command (run as: ${line})`;
    const { sessions } = context;
    // The call's own budget, else the model's.
    const budget = args.max_output_tokens ?? context.outputTokens;
    const sandbox = context.sandbox && { policy: context.sandbox };
    const start = workspace.startCommand?.bind(workspace);
    const result =
      sessions && start
        ? await runInBackground({ what, line, args, budget, sandbox, signal: context.signal }, start, sessions)
        : await timedRun(
            what,
            args.timeout_s,
            (timeoutMs) => workspace.runCommand(line, { workdir: args.workdir, timeoutMs, sandbox }),
            budget,
          );
    return withDenialNote(result, context.sandbox);
  },
});

/** The model asks to leave the sandbox in these arguments (a call's JSON): its reason and suggested rule. */
export function escalationOf(args: unknown): { justification?: string; prefixRule?: string } | undefined {
  const parsed = ExecCommandArgs.pick(ESCALATION).safeParse(args);
  if (!parsed.success || parsed.data.sandbox_permissions !== 'require_escalated') return undefined;
  const { justification, prefix_rule: prefix } = parsed.data;
  const rule = prefix
    ?.map((word) => word.trim())
    .filter(Boolean)
    .join(' ');
  return {
    ...(justification?.trim() ? { justification: justification.trim() } : {}),
    ...(rule ? { prefixRule: rule } : {}),
  };
}

/** A call to run as a session: what its report calls it, the line that runs, its arguments, its output budget. */
interface RunInBackground {
  what: string;
  line: string;
  args: z.output<typeof ExecCommandArgs>;
  budget: number | undefined;
  sandbox: CommandSandbox | undefined;
  /** The task's Stop (ToolContext.signal). */
  signal: AbortSignal | undefined;
}

/** Runs `line` as a session: the answer waits for its end or the yield time, and then it runs on. */
async function runInBackground(
  { what, line, args, budget, sandbox, signal }: RunInBackground,
  start: NonNullable<Workspace['startCommand']>,
  sessions: BackgroundCommands,
): Promise<ToolResult> {
  const timeoutS = args.timeout_s ?? TASK_DEFAULT_TIMEOUT_S;
  const startedAt = performance.now();
  const session = await start(line, { workdir: args.workdir, timeoutMs: timeoutS * 1000, sandbox });
  // The task's Stop ends the command its call waits on (a subagent closed, a task stopped before the yield
  // time), as a host's Stop ends those in the background.
  const stop = () => void session.stop();
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  void session.ended.then(() => signal?.removeEventListener('abort', stop));
  const first = await session.read(args.yield_time_ms ?? EXEC_YIELD_MS);
  // Over before the yield time: no session to speak of, the answer is today's.
  if (first.end) return sessionReport(what, 0, { progress: first, timeoutS, sessions, budget });
  const id = sessions.add({ session, command: args.cmd, timeoutS, startedAt });
  return sessionReport(what, id, { progress: first, timeoutS, sessions, budget });
}

/** A failed confined command's result, with what the sandbox refused where its output shows it. */
function withDenialNote(result: ToolResult, policy: SandboxPolicy | undefined): ToolResult {
  if (!policy || result.ok) return result;
  const note = denialNote(result.output, policy);
  return note === undefined ? result : { ...result, output: `${result.output}\n\n${note}` };
}

/** A call of this tool's command line, the root of the folder it runs in and whether it only reads. */
export interface JudgedCall {
  line: string;
  /** Undefined where the folder is not known (a workdir outside the workspace). */
  root: string | undefined;
  verdict: CommandVerdict;
  /** Where the model asks to run it outside the sandbox. */
  escalation?: { justification?: string; prefixRule?: string };
}

/** The command a call of this tool runs, judged; undefined for another tool's call or arguments unread. */
export async function judgeCommandCall(
  name: string,
  input: string,
  workspace: Workspace,
): Promise<JudgedCall | undefined> {
  if (name !== execCommandTool.name) return undefined;
  const args = ExecCommandArgs.safeParse(jsonArguments(input));
  if (!args.success) return undefined;
  const place = placeOf(workspace, args.data.workdir);
  const escalation = escalationOf(args.data);
  return {
    line: args.data.cmd,
    root: place?.root,
    verdict: await judgeAt(place, args.data.cmd),
    ...(escalation ? { escalation } : {}),
  };
}

/**
 * Where `workdir` is (the root as the adapter runs it for none, `.` or empty), and which folder's root a
 * command run there may not leave; undefined if unknown. The port locates files, not folders: a name inside
 * the folder is located instead (it need not exist).
 */
function placeOf(workspace: Workspace, workdir: string | undefined): CommandPlace | undefined {
  const folder =
    workdir
      ?.trim()
      .replace(/^\.\/?$/, '')
      .replace(/\/+$/, '') ?? '';
  try {
    const probe = workspace.locate(folder === '' ? PROBE : `${folder}/${PROBE}`);
    return { cwd: path.dirname(probe.absolute), root: probe.root };
  } catch {
    return undefined;
  }
}

const PROBE = '.loopwire-workdir';

/** Judges `cmd` run in `place`; nowhere known, it is not safe. */
async function judgeAt(place: CommandPlace | undefined, cmd: string): Promise<CommandVerdict> {
  if (!place) return { reason: 'the folder it runs in is not one the workspace locates', run: cmd };
  return judgeCommand(cmd, place);
}
