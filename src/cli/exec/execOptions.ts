// `loopwire exec`'s flags: its usage text, and the checks that turn argv into what the run needs, or a usage
// error said before anything is started or written.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type ApprovalMode,
  DEFAULT_MAX_TURNS,
  DEFAULT_MODEL,
  type SandboxChoice,
  type TransportMode,
  isApprovalMode,
} from '../../agent';
import { type CliIo, ExitCode, errorMessage } from '../cliIo';
import { t } from '../cliL10n';
import { type ContextRequest, contextFlagOptions, contextFlagsUsage, parseContextFlags } from './contextFlags';
import { dumpRequestUsage } from './dumpRequest';
import { agentFlagOptions, agentFlagsUsage } from './execAgent';
import {
  type ExecHost,
  defaultApproval,
  parseSandboxFlag,
  processHost,
  sandboxFlagOptions,
  sandboxFlagsUsage,
  unavailableSandbox,
} from './execSandbox';
import { fileFlagOptions, fileFlagsUsage } from './fileFlags';
import { hookFlagOptions, hookFlagsUsage } from './hooksSetup';
import { mcpFlagOptions, mcpFlagsUsage } from './mcpSetup';
import { type ModelRequest, modelFlagOptions, modelFlagsUsage, parseModelFlags } from './modelFlags';
import { worktreeFlagOptions, worktreeFlagsProblem, worktreeFlagsUsage } from './worktreeFlags';

export const execUsage = `${t('usage: {0}', 'loopwire exec [options] "prompt"')}

${t("Runs one task to completion on a folder: the model's tool calls (find, search, read, edit, run tasks) act on\nthe files there. By default the model is the bundled server's scripted one, in-process and offline.")}

  --workspace DIR        ${t('the folder to work on (default: the current directory)')}
${worktreeFlagsUsage}${fileFlagsUsage}  --endpoint URL         ${t("a Responses API base URL (http://127.0.0.1:PORT/v1 as loopwire-server prints it,\n                         https://api.openai.com/v1 with OPENAI_API_KEY), or 'embedded' (default)")}
  --transport MODE       ${t('ws, http or auto (default auto: WebSocket, HTTP after repeated failures)')}
  --model M              ${t('the model (default {0}; GPT models are offered apply_patch, others edit_file)', DEFAULT_MODEL)}
  --scenario FILE        ${t('a scenario file for the embedded server, before the default ones (repeatable)')}
  --approve POLICY       ${t('auto, ask, all, read-only or plan (default: auto on a terminal where commands can\n                         be confined, else ask; read-only without a terminal); ask needs a terminal on\n                         stdin; auto runs edits and commands in the sandbox unasked and asks to leave it\n                         (declined without a terminal); plan reads and plans, and changes nothing')}
${sandboxFlagsUsage}  --max-turns N          ${t('model responses at most (default 500: a ceiling; a model that makes no progress\n                         three responses in a row is stopped before)')}
  --resume FILE          ${t('continue the session kept in FILE (the prompt is optional then)')}
  --sessions-dir DIR     ${t('where sessions are kept (default: $XDG_STATE_HOME/loopwire/sessions)')}
${agentFlagsUsage}${modelFlagsUsage}${contextFlagsUsage}${mcpFlagsUsage}${hookFlagsUsage}  --verbose              ${t("print every line of each tool's output (default: the first few, a task's last few)")}
  --json                 ${t("print the agent's events as JSON Lines instead of text")}
${dumpRequestUsage}
${t('Exit status: 0 the task completed, 1 it failed or was stopped (the reason on one line), 2 bad usage.')}
`;

export const EXEC_NAME = 'loopwire exec';

export type ExecFlags = ReturnType<typeof parse>['values'];

/** What the flags ask for once checked: everything a run needs before it opens the workspace. */
export interface ExecOptions {
  flags: ExecFlags;
  /** Where the run was started: a terminal or not, a sandbox or not. */
  host: ExecHost;
  /** Absent only with --resume. */
  prompt: string | undefined;
  transport: TransportMode;
  approve: ApprovalMode;
  /** --approve was not given: the mode is the terminal's and the machine's default. */
  approveDefaulted: boolean;
  /** The sandbox asked for (--sandbox, --allow-network) and this machine's support. */
  sandbox: SandboxChoice;
  maxTurns: number;
  endpoint: string;
  model: string;
  request: ModelRequest;
  context: ContextRequest;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      endpoint: { type: 'string' },
      transport: { type: 'string' },
      model: { type: 'string' },
      scenario: { type: 'string', multiple: true },
      approve: { type: 'string' },
      ...sandboxFlagOptions,
      'max-turns': { type: 'string' },
      resume: { type: 'string' },
      'sessions-dir': { type: 'string' },
      ...modelFlagOptions,
      ...contextFlagOptions,
      ...fileFlagOptions,
      ...mcpFlagOptions,
      ...hookFlagOptions,
      ...agentFlagOptions,
      ...worktreeFlagOptions,
      verbose: { type: 'boolean' },
      json: { type: 'boolean' },
      'dump-request': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export const usageError = (io: CliIo, message: string): ExitCode => {
  io.stderr(`${EXEC_NAME}: ${message}\n\n${execUsage}`);
  return ExitCode.usage;
};

export function sessionsDir(flags: ExecFlags): string {
  if (flags['sessions-dir']) return path.resolve(flags['sessions-dir']);
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'loopwire', 'sessions');
}

/** The checked options; an exit code when the run ends here (--help, or a usage error already said). */
export function execOptions(argv: string[], io: CliIo, host: ExecHost = processHost()): ExecOptions | ExitCode {
  let parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usageError(io, errorMessage(error));
  }
  const flags = parsed.values;
  if (flags.help) {
    io.stdout(execUsage);
    return ExitCode.ok;
  }
  if (parsed.positionals.length > 1) return usageError(io, 'give the prompt as one argument (quote it)');
  const prompt = parsed.positionals[0];
  const blank = prompt === undefined || prompt.trim() === '';
  // The panel sends an image alone (the user reads the answer and goes on); exec runs a task unattended, which
  // may edit files and run commands, so it wants words: an empty "$PROMPT" beside --image starts nothing.
  if (blank && (flags.image || flags.file))
    return usageError(io, '--image and --file attach to a prompt: say what to do with them, as the prompt');
  if (blank && !flags.resume) return usageError(io, 'no prompt');
  const worktree = worktreeFlagsProblem(flags);
  if (worktree !== undefined) return usageError(io, worktree);
  const run = runFlags(flags, io);
  if (typeof run === 'number') return run;
  const approvals = approvalFlags(flags, io, host);
  if (typeof approvals === 'number') return approvals;
  const request = parseModelFlags(flags);
  if (typeof request === 'string') return usageError(io, request);
  const context = parseContextFlags(flags);
  if (typeof context === 'string') return usageError(io, context);
  return { flags, host, prompt, ...run, ...approvals, request, context };
}

/** Transport, turns, endpoint and model, checked. */
function runFlags(
  flags: ExecFlags,
  io: CliIo,
): Pick<ExecOptions, 'transport' | 'maxTurns' | 'endpoint' | 'model'> | ExitCode {
  const transport = (flags.transport ?? 'auto') as TransportMode;
  if (!['ws', 'http', 'auto'].includes(transport))
    return usageError(io, `--transport must be ws, http or auto, not '${transport}'`);
  const maxTurns = flags['max-turns'] === undefined ? DEFAULT_MAX_TURNS : Number(flags['max-turns']);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) return usageError(io, '--max-turns must be a positive integer');
  const endpoint = flags.endpoint ?? 'embedded';
  if (endpoint !== 'embedded' && !/^(https?|wss?):\/\//.test(endpoint))
    return usageError(
      io,
      `--endpoint must be a URL (http://, https://, ws://, wss://) or 'embedded', not '${endpoint}'`,
    );
  if (endpoint !== 'embedded' && flags.scenario) return usageError(io, '--scenario is for the embedded server only');
  return { transport, maxTurns, endpoint, model: flags.model ?? DEFAULT_MODEL };
}

/** --approve, --sandbox and --allow-network, checked against the terminal and the machine's sandbox. */
function approvalFlags(
  flags: ExecFlags,
  io: CliIo,
  host: ExecHost,
): Pick<ExecOptions, 'approve' | 'approveDefaulted' | 'sandbox'> | ExitCode {
  const approve = flags.approve ?? defaultApproval(host);
  if (!isApprovalMode(approve))
    return usageError(io, `--approve must be auto, ask, all, read-only or plan, not '${approve}'`);
  // Asking needs someone to answer: without a terminal on stdin the first write would wait forever (or read
  // a piped file as answers). Refuse before anything is started or written. `auto` asks only to leave the
  // sandbox, and without a terminal declines that instead.
  if (approve === 'ask' && !host.stdinTerminal && !flags['dump-request'])
    return usageError(
      io,
      '--approve ask needs a terminal to ask on, and stdin is not one: use --approve all to allow every ' +
        'edit and task, --approve auto to run them in the sandbox, or --approve read-only to decline them ' +
        '(reads still run)',
    );
  const chosen = parseSandboxFlag(flags.sandbox);
  if (typeof chosen === 'object') return usageError(io, chosen.error);
  const sandbox: SandboxChoice = { chosen, network: flags['allow-network'] === true, support: host.support() };
  const unavailable = unavailableSandbox(sandbox);
  if (unavailable !== undefined) {
    io.stderr(`${EXEC_NAME}: ${unavailable}\n`);
    return ExitCode.failed;
  }
  return { approve, approveDefaulted: flags.approve === undefined, sandbox };
}
