// `loopwire exec "prompt"`: one task run to completion on a folder through the Node adapter, over the
// model transport, against the bundled server in-process (default) or any Responses endpoint.
// Here the run is prepared (flags, workspace, attachments, MCP consent, backend, transcript); execRun.ts runs it.
import * as path from 'node:path';
import {
  type CustomAgent,
  type PromptWithParts,
  Transcript,
  newTranscript,
  promptAgent,
  stricterMode,
} from '../../agent';
import type { McpConfig } from '../../mcp/mcpConfig';
import type { InputImage, InputText } from '../../protocol';
import { BUILTIN_TOOLS } from '../../tools';
import { NodeWorkspace } from '../../workspace/node/nodeWorkspace';
import { type CliIo, ExitCode, errorMessage } from '../cliIo';
import { dumpRequest } from './dumpRequest';
import { type ExecAgents, execAgents, sayAgent } from './execAgent';
import { EXEC_NAME, type ExecOptions, execOptions, sessionsDir, usageError } from './execOptions';
import { execHeader } from './execRenderer';
import { type SlashRun, execSlash, narrowedTools } from './execSlash';
import { type ExecExtras, type ExecRun, type PromptMode, runExec } from './execRun';
import { noSandboxNotice, sandboxLabel, sandboxReader } from './execSandbox';
import { promptFlagParts } from './fileFlags';
import { mcpServersOf, terminalConsent } from './mcpSetup';
import { openWorktree } from './worktreeOpen';

export { execUsage } from './execOptions';
export type { ExecExtras } from './execRun';

type Parts = (InputText | InputImage)[];

export async function execCommand(argv: string[], io: CliIo, extras: ExecExtras = {}): Promise<ExitCode> {
  const given = execOptions(argv, io, extras.host);
  if (typeof given === 'number') return given;
  const opened = await openWorkspace(given, io);
  if (typeof opened === 'number') return opened;
  const { workspace, parts } = opened;
  // `/name args`: a prompt file, a skill or a built-in makes the prompt (and may pick the model, tools, mode).
  const slash = await execSlash(given, workspace.root, io);
  if (typeof slash === 'number') return slash;
  const { tools: toolNames, review, model: promptModel, compact } = slash;
  const chosen = await chooseAgents(given, slash, workspace.root, io);
  if (typeof chosen === 'number') return chosen;
  const { options, first, agents, own } = chosen;
  const prompt = promptOf(options.prompt, parts);
  if (options.flags['dump-request'])
    return dumpFor(first, workspace, prompt, io, { toolNames, agents: firstAgents(agents, own.agent) });
  let mcpConfig: McpConfig;
  try {
    mcpConfig = await mcpServersOf(options.flags['mcp-config'], workspace.root, terminalConsent(io.stderr));
  } catch (error) {
    return usageError(io, errorMessage(error));
  }
  const { flags } = options;
  const color =
    !flags.json && !process.env.NO_COLOR && (Boolean(process.env.FORCE_COLOR) || process.stdout.isTTY === true);
  // Said before the backend loads and the socket opens: the run has started, and with what.
  if (!flags.json) io.stdout(header(first, workspace, color));
  // Said once, on stderr (never in --json's stream): a run that would confine its commands and cannot.
  const notice = noSandboxNotice(options.approve, options.sandbox, options.approveDefaulted);
  if (notice !== undefined) io.stderr(notice);
  const loaded = await loadBackendAndTranscript(options, workspace, io);
  if (typeof loaded === 'number') return loaded;
  const run: ExecRun = {
    options,
    workspace,
    prompt,
    mcpConfig,
    color,
    ...loaded,
    toolNames,
    promptModel,
    agents,
    review,
    compact,
    ...(own.agent === undefined ? {} : { promptAgent: own.agent }),
    ...(own.mode === undefined ? {} : { promptMode: own.mode }),
  };
  return runExec(run, io, extras);
}

/** The run as the slash command and --agent make it, and what its first prompt has of its own. */
interface Chosen {
  /** The run's: the prompt, --approve's mode, the model (--model's, or --agent's where it names none). */
  options: ExecOptions;
  /** The first prompt's: its own model and mode where it has them (the header, --dump-request). */
  first: ExecOptions;
  agents: ExecAgents;
  /** A prompt file's custom agent, and the mode of `/plan` or of a prompt file's `agent: ask`/`plan`. */
  own: { agent?: CustomAgent | null; mode?: PromptMode };
}

/** The run's agents and model, and its first prompt's own agent and mode; or the usage error's exit code. */
async function chooseAgents(given: ExecOptions, slash: SlashRun, root: string, io: CliIo): Promise<Chosen | ExitCode> {
  // --agent: a custom agent's model is the run's where --model named none (a prompt file's is its prompt's).
  const modelChosen = given.flags.model !== undefined || slash.options.model !== given.model;
  const request = { name: slash.options.flags.agent, model: slash.options.model, modelChosen };
  const chosen = await execAgents(request, root, io);
  if (typeof chosen === 'number') return chosen;
  const { agents } = chosen;
  const own = ownAgent(slash, agents.agents, io);
  if (typeof own === 'number') return own;
  const options = { ...slash.options, model: chosen.model };
  // `/plan`'s mode, or a prompt file's `agent: ask`/`plan`: its prompt's alone; the run keeps --approve's.
  const mode = own.mode ?? slash.mode;
  const first = {
    ...options,
    ...(slash.model === undefined ? {} : { model: slash.model }),
    // As the run has it (promptChoices, execRun.ts): never looser than --approve's.
    ...(mode === undefined ? {} : { approve: stricterMode(options.approve, mode) }),
  };
  return { options, first, agents, own: { ...own, ...(mode === undefined ? {} : { mode }) } };
}

/** The workspace and what --file and --image attach, or the usage error's exit code. */
async function openWorkspace(
  options: ExecOptions,
  io: CliIo,
): Promise<{ workspace: NodeWorkspace; parts: Parts } | ExitCode> {
  const { flags } = options;
  let workspace: NodeWorkspace;
  try {
    workspace = await NodeWorkspace.open(path.resolve(flags.workspace ?? '.'));
  } catch (error) {
    return usageError(io, `--workspace: ${errorMessage(error)}`);
  }
  // --worktree: the whole task runs in a worktree of its own, made (and set up) here, before anything else.
  if (flags.worktree !== undefined) {
    const opened = await openWorktree(options, io);
    if (typeof opened === 'string') {
      io.stderr(`${EXEC_NAME}: ${opened}\n`);
      return ExitCode.failed;
    }
    workspace = opened;
  }
  if ((flags.file || flags.image) && options.prompt === undefined)
    return usageError(io, '--file and --image attach to a prompt: give one');
  const parts = await promptFlagParts(flags, workspace);
  if (typeof parts === 'string') return usageError(io, parts);
  return { workspace, parts };
}

/** The prompt as the agent takes it: its text alone, or with the attached parts. */
function promptOf(text: string | undefined, parts: Parts): string | PromptWithParts | undefined {
  return text !== undefined && parts.length > 0 ? { text, parts } : text;
}

/** --dump-request: the first request's body, printed; nothing started or sent. */
function dumpFor(
  options: ExecOptions,
  workspace: NodeWorkspace,
  prompt: string | PromptWithParts | undefined,
  io: CliIo,
  { toolNames, agents }: { toolNames: string[] | undefined; agents: ExecAgents },
): Promise<ExitCode> | ExitCode {
  if (prompt === undefined) return usageError(io, '--dump-request prints the request for a prompt: give one');
  const { endpoint, model, context, approve } = options;
  const { modelOptions, headers } = options.request;
  // The sandbox as a real run has it: the model is offered the way out of it, and told of it.
  const sandbox = sandboxReader(approve, options.sandbox);
  const setup = { endpoint, model, modelOptions, headers, context, workspace, approve, prompt, sandbox };
  // A prompt file's `tools`: the request offers only those.
  const registry = toolNames && narrowedTools(BUILTIN_TOOLS, toolNames, (line) => io.stderr(line));
  sayAgent(agents.agent, registry ?? BUILTIN_TOOLS, (line) => io.stderr(line));
  return dumpRequest({ ...setup, ...(registry ? { registry } : {}), agents }, io);
}

function header(options: ExecOptions, workspace: NodeWorkspace, color: boolean): string {
  const { model, endpoint, transport, approve, flags } = options;
  const sandbox = sandboxLabel(approve, options.sandbox);
  const root = workspace.root;
  return execHeader({ model, endpoint, transport, approve, sandbox, workspace: root, resume: flags.resume, color });
}

/** The bundled backend with its scenarios (only to run it), and the transcript, new or resumed. */
async function loadBackendAndTranscript(
  options: ExecOptions,
  workspace: NodeWorkspace,
  io: CliIo,
): Promise<Pick<ExecRun, 'backend' | 'transcript'> | ExitCode> {
  const { flags } = options;
  // The bundled backend is loaded only to run it: against an endpoint, exec starts without its code.
  const module = options.endpoint === 'embedded' ? await import('../../server') : undefined;
  try {
    const backend = module && {
      module,
      scenarios: [...(flags.scenario ?? []).map((file) => module.loadScenarioFile(file)), module.DEFAULT_SCENARIOS],
    };
    const transcript = flags.resume
      ? Transcript.load(path.resolve(flags.resume))
      : newTranscript(sessionsDir(flags), { workspace: workspace.root, model: options.model });
    return { backend, transcript };
  } catch (error) {
    io.stderr(`${EXEC_NAME}: ${errorMessage(error)}\n`);
    return ExitCode.failed;
  }
}

/**
 * A prompt file's `agent` (promptAgent.ts): the custom agent its prompt runs as (`null`: Loopwire's own), and
 * the approval mode `ask` and `plan` make for that prompt alone (as /plan's); a name that is no agent is bad usage.
 */
function ownAgent(
  slash: SlashRun,
  agents: readonly CustomAgent[],
  io: CliIo,
): { agent?: CustomAgent | null; mode?: PromptMode } | ExitCode {
  if (slash.agent === undefined) return {};
  const named = promptAgent(slash.agent, agents);
  if ('problem' in named) {
    io.stderr(`${EXEC_NAME}: the prompt file: ${named.problem}\n`);
    return ExitCode.usage;
  }
  if ('custom' in named) return { agent: named.custom };
  if (named.mode === undefined) return { agent: null };
  return { agent: null, mode: named.mode };
}

/** The run's agents as its first prompt has them: a prompt file's `agent` in place of --agent's. */
function firstAgents(agents: ExecAgents, own: CustomAgent | null | undefined): ExecAgents {
  if (own === undefined) return agents;
  const { agent: _run, ...rest } = agents;
  return own === null ? rest : { ...rest, agent: own };
}
