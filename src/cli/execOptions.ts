// `loopwire exec`'s flags: its usage text, and the checks that turn argv into what the run needs, or a usage
// error said before anything is started or written.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { type ApprovalMode, DEFAULT_MAX_TURNS, DEFAULT_MODEL, type TransportMode, isApprovalMode } from '../agent';
import { type CliIo, ExitCode, errorMessage } from './cliIo';
import { t } from './cliL10n';
import { type ContextRequest, contextFlagOptions, contextFlagsUsage, parseContextFlags } from './contextFlags';
import { dumpRequestUsage } from './dumpRequest';
import { fileFlagOptions, fileFlagsUsage } from './fileFlags';
import { mcpFlagOptions, mcpFlagsUsage } from './mcpSetup';
import { type ModelRequest, modelFlagOptions, modelFlagsUsage, parseModelFlags } from './modelFlags';

export const execUsage = `${t('usage: {0}', 'loopwire exec [options] "prompt"')}

${t("Runs one task to completion on a folder: the model's tool calls (find, search, read, edit, run tasks) act on\nthe files there. By default the model is the bundled server's scripted one, in-process and offline.")}

  --workspace DIR        ${t('the folder to work on (default: the current directory)')}
${fileFlagsUsage}  --endpoint URL         ${t("a Responses API base URL (http://127.0.0.1:PORT/v1 as loopwire-server prints it,\n                         https://api.openai.com/v1 with OPENAI_API_KEY), or 'embedded' (default)")}
  --transport MODE       ${t('ws, http or auto (default auto: WebSocket, HTTP after repeated failures)')}
  --model M              ${t('the model (default {0}; GPT models are offered apply_patch, others edit_file)', DEFAULT_MODEL)}
  --scenario FILE        ${t('a scenario file for the embedded server, before the default ones (repeatable)')}
  --approve POLICY       ${t('all, read-only, ask or plan (default: ask on a terminal, read-only without one);\n                         ask needs a terminal on stdin; plan reads and plans, and changes nothing')}
  --max-turns N          ${t('model responses at most (default 500: a ceiling; a model that makes no progress\n                         three responses in a row is stopped before)')}
  --resume FILE          ${t('continue the session kept in FILE (the prompt is optional then)')}
  --sessions-dir DIR     ${t('where sessions are kept (default: $XDG_STATE_HOME/loopwire/sessions)')}
${modelFlagsUsage}${contextFlagsUsage}${mcpFlagsUsage}  --verbose              ${t("print every line of each tool's output (default: the first few, a task's last few)")}
  --json                 ${t("print the agent's events as JSON Lines instead of text")}
${dumpRequestUsage}
${t('Exit status: 0 the task completed, 1 it failed or was stopped (the reason on one line), 2 bad usage.')}
`;

export const EXEC_NAME = 'loopwire exec';

export type ExecFlags = ReturnType<typeof parse>['values'];

/** What the flags ask for once checked: everything a run needs before it opens the workspace. */
export interface ExecOptions {
  flags: ExecFlags;
  /** Absent only with --resume. */
  prompt: string | undefined;
  transport: TransportMode;
  approve: ApprovalMode;
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
      'max-turns': { type: 'string' },
      resume: { type: 'string' },
      'sessions-dir': { type: 'string' },
      ...modelFlagOptions,
      ...contextFlagOptions,
      ...fileFlagOptions,
      ...mcpFlagOptions,
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
export function execOptions(argv: string[], io: CliIo): ExecOptions | ExitCode {
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
  const run = runFlags(flags, io);
  if (typeof run === 'number') return run;
  const request = parseModelFlags(flags);
  if (typeof request === 'string') return usageError(io, request);
  const context = parseContextFlags(flags);
  if (typeof context === 'string') return usageError(io, context);
  return { flags, prompt, ...run, request, context };
}

/** Transport, approvals, turns, endpoint and model, checked. */
function runFlags(
  flags: ExecFlags,
  io: CliIo,
): Pick<ExecOptions, 'transport' | 'approve' | 'maxTurns' | 'endpoint' | 'model'> | ExitCode {
  const transport = (flags.transport ?? 'auto') as TransportMode;
  if (!['ws', 'http', 'auto'].includes(transport))
    return usageError(io, `--transport must be ws, http or auto, not '${transport}'`);
  const approve = flags.approve ?? (process.stdin.isTTY && process.stderr.isTTY ? 'ask' : 'read-only');
  if (!isApprovalMode(approve))
    return usageError(io, `--approve must be all, read-only, ask or plan, not '${approve}'`);
  // Asking needs someone to answer: without a terminal on stdin the first write would wait forever (or read
  // a piped file as answers). Refuse before anything is started or written.
  if (approve === 'ask' && !process.stdin.isTTY && !flags['dump-request'])
    return usageError(
      io,
      '--approve ask needs a terminal to ask on, and stdin is not one: use --approve all to allow every ' +
        'edit and task, or --approve read-only to decline them (reads still run)',
    );
  const maxTurns = flags['max-turns'] === undefined ? DEFAULT_MAX_TURNS : Number(flags['max-turns']);
  if (!Number.isInteger(maxTurns) || maxTurns < 1) return usageError(io, '--max-turns must be a positive integer');
  const endpoint = flags.endpoint ?? 'embedded';
  if (endpoint !== 'embedded' && !/^(https?|wss?):\/\//.test(endpoint))
    return usageError(
      io,
      `--endpoint must be a URL (http://, https://, ws://, wss://) or 'embedded', not '${endpoint}'`,
    );
  if (endpoint !== 'embedded' && flags.scenario) return usageError(io, '--scenario is for the embedded server only');
  return { transport, approve, maxTurns, endpoint, model: flags.model ?? DEFAULT_MODEL };
}
