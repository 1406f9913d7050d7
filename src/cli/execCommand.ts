// `loopwire exec "prompt"`: one task run to completion on a folder through the Node adapter, over the
// session transport, against the bundled server in-process (default) or any Responses endpoint.
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type AgentEvent,
  type AgentSession,
  DEFAULT_MAX_TURNS,
  DEFAULT_MODEL,
  Transcript,
  type TransportMode,
  contextWindowFor,
  createAgentSession,
  findProjectInstructions,
  isApprovalMode,
  newTranscript,
  policyFor,
} from '../agent';
import type { LoopwireServer } from '../server';
import { CommandSessions, ReadLedger, type ToolRegistry } from '../tools';
import { NodeWorkspace } from '../workspace/node/nodeWorkspace';
import { commandShellName } from '../workspace/shared/userShell';
import { type CliIo, ExitCode, errorMessage } from './cliIo';
import { cliCommandRules } from './commandRulesFile';
import { contextFlagOptions, contextFlagsUsage, parseContextFlags } from './contextFlags';
import { dumpRequest, dumpRequestUsage } from './dumpRequest';
import { ExecRenderer, execHeader } from './execRenderer';
import { fileFlagOptions, fileFlagsUsage, promptFlagParts } from './fileFlags';
import { projectInstructionsLine } from './instructionsLine';
import {
  type ExecTools,
  mcpFlagOptions,
  mcpFlagsUsage,
  mcpServersOf,
  startExecTools,
  terminalConsent,
} from './mcpSetup';
import { modelFlagOptions, modelFlagsUsage, parseModelFlags } from './modelFlags';
import { sessionLine } from './sessionLines';
import { failureLine } from './stopAdvice';
import { terminalAsk } from './terminalQuestion';
import { terminalSteering } from './terminalSteering';

export const execUsage = `usage: loopwire exec [options] "prompt"

Runs one task to completion on a folder: the model's tool calls (find, search, read, edit, run tasks) act on
the files there. By default the model is the bundled server's scripted one, in-process and offline.

  --workspace DIR        the folder to work on (default: the current directory)
${fileFlagsUsage}  --endpoint URL         a Responses API base URL (http://127.0.0.1:PORT/v1 as loopwire-server prints it,
                         https://api.openai.com/v1 with OPENAI_API_KEY), or 'embedded' (default)
  --transport MODE       ws, http or auto (default auto: WebSocket, HTTP after repeated failures)
  --model M              the model (default ${DEFAULT_MODEL}; GPT models are offered apply_patch, others edit_file)
  --scenario FILE        a scenario file for the embedded server, before the default ones (repeatable)
  --approve POLICY       all, read-only, ask or plan (default: ask on a terminal, read-only without one);
                         ask needs a terminal on stdin; plan reads and plans, and changes nothing
  --max-turns N          model responses at most (default 500: a ceiling; a model that makes no progress
                         three responses in a row is stopped before)
  --resume FILE          continue the session kept in FILE (the prompt is optional then)
  --sessions-dir DIR     where sessions are kept (default: $XDG_STATE_HOME/loopwire/sessions)
${modelFlagsUsage}${contextFlagsUsage}${mcpFlagsUsage}  --verbose              print every line of each tool's output (default: the first few, a task's last few)
  --json                 print the agent's events as JSON Lines instead of text
${dumpRequestUsage}
Exit status: 0 the task completed, 1 it failed or was stopped (the reason on one line), 2 bad usage.
`;

const name = 'loopwire exec';

/** How a user of the embedded backend adds a scenario: the end of the answer to a prompt none matches. */
const SCENARIO_HINT = 'add --scenario FILE to loopwire exec';

type Flags = ReturnType<typeof parse>['values'];

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

const usageError = (io: CliIo, message: string): ExitCode => {
  io.stderr(`${name}: ${message}\n\n${execUsage}`);
  return ExitCode.usage;
};

function sessionsDir(flags: Flags): string {
  if (flags['sessions-dir']) return path.resolve(flags['sessions-dir']);
  const state = process.env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'loopwire', 'sessions');
}

/** How the agent's events are printed: JSON Lines with --json, else for people, by the renderer. */
function eventPrinter(flags: Flags, out: CliIo, color: boolean, tools: ToolRegistry): (event: AgentEvent) => void {
  if (flags.json) return (event) => out.stdout(`${JSON.stringify(event)}\n`);
  const verbose = flags.verbose === true;
  const renderer = new ExecRenderer({ stdout: out.stdout, stderr: out.stderr, color, verbose, tools });
  return (event) => renderer.handle(event);
}

export interface ExecExtras {
  /** Say where the session is kept (not for a demo whose folder is removed afterwards). */
  announceSession?: boolean;
}

export async function execCommand(argv: string[], io: CliIo, extras: ExecExtras = {}): Promise<ExitCode> {
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
  if ((prompt === undefined || prompt.trim() === '') && !flags.resume) return usageError(io, 'no prompt');
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
  const model = flags.model ?? DEFAULT_MODEL;
  const request = parseModelFlags(flags);
  if (typeof request === 'string') return usageError(io, request);
  const context = parseContextFlags(flags);
  if (typeof context === 'string') return usageError(io, context);

  let workspace: NodeWorkspace;
  try {
    workspace = await NodeWorkspace.open(path.resolve(flags.workspace ?? '.'));
  } catch (error) {
    return usageError(io, `--workspace: ${errorMessage(error)}`);
  }
  if ((flags.file || flags.image) && prompt === undefined)
    return usageError(io, '--file and --image attach to a prompt: give one');
  const parts = await promptFlagParts(flags, workspace);
  if (typeof parts === 'string') return usageError(io, parts);
  if (flags['dump-request']) {
    if (prompt === undefined) return usageError(io, '--dump-request prints the request for a prompt: give one');
    const { modelOptions, headers } = request;
    const asked = parts.length > 0 ? { text: prompt, parts } : prompt;
    return dumpRequest(
      {
        endpoint,
        model,
        modelOptions,
        headers,
        context,
        workspace,
        approve,
        prompt: asked,
      },
      io,
    );
  }
  let mcpConfig;
  try {
    mcpConfig = await mcpServersOf(flags['mcp-config'], workspace.root, terminalConsent(io.stderr));
  } catch (error) {
    return usageError(io, errorMessage(error));
  }
  const color =
    !flags.json && !process.env.NO_COLOR && (Boolean(process.env.FORCE_COLOR) || process.stdout.isTTY === true);
  // Said before the backend loads and the socket opens: the run has started, and with what.
  if (!flags.json)
    io.stdout(
      execHeader({
        model,
        endpoint,
        transport,
        approve,
        workspace: workspace.root,
        resume: flags.resume,
        color,
      }),
    );
  // The bundled backend is loaded only to run it: against an endpoint, exec starts without its code.
  const backend = endpoint === 'embedded' ? await import('../server') : undefined;
  let scenarios;
  try {
    scenarios = backend
      ? [...(flags.scenario ?? []).map((file) => backend.loadScenarioFile(file)), backend.DEFAULT_SCENARIOS]
      : [];
  } catch (error) {
    io.stderr(`${name}: ${errorMessage(error)}\n`);
    return ExitCode.failed;
  }
  let transcript: Transcript;
  try {
    transcript = flags.resume
      ? Transcript.load(path.resolve(flags.resume))
      : newTranscript(sessionsDir(flags), { workspace: workspace.root, model });
  } catch (error) {
    io.stderr(`${name}: ${errorMessage(error)}\n`);
    return ExitCode.failed;
  }

  let server: LoopwireServer | undefined;
  let tools: ExecTools | undefined;
  let session: AgentSession | undefined;
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  // Commands left running in the background: each said on stderr, and all stopped however exec ends.
  const sessions = new CommandSessions((event) => io.stderr(sessionLine(event)));
  try {
    // The embedded backend reads the window the agent manages: the model's own, or --context-window's.
    if (backend)
      server = await backend.startServer({
        scenarios,
        scenarioHint: SCENARIO_HINT,
        contextWindow: contextWindowFor(model, context.window),
      });
    // The MCP servers' tools join the built-in ones (their lines go to stderr, like transport notes).
    tools = await startExecTools(mcpConfig, (line) => io.stderr(`(${line})\n`));
    // On a terminal the user can steer the task as it runs; its output waits while they type a line.
    const steering = terminalSteering(io, color);
    const emit = eventPrinter(flags, steering.io, color, tools.registry);
    const apiKey = server ? undefined : process.env.OPENAI_API_KEY;
    // The key is the agent's, not the workspace's: tasks inherit this process's environment, and one that
    // prints it (a test dumping `env`) would put the key in the tool's output, the transcript and the
    // model's context. So no task gets it (test/unit/reliability/secrets.test.ts).
    delete process.env.OPENAI_API_KEY;
    session = createAgentSession({
      endpoint: server ? server.url : endpoint,
      transport,
      emit,
      headers: request.headers,
      apiKey,
      // The embedded backend is in this process: never through a proxy. An endpoint follows the environment.
      ...(server ? { proxy: { off: true } } : {}),
    });
    const agent = session.agent({
      model,
      modelOptions: request.modelOptions,
      transcript,
      tools: { workspace, reads: new ReadLedger(), sessions },
      registry: tools.registry,
      approvals: policyFor(
        approve,
        steering.asking(terminalAsk((request) => tools?.registry.summarize(request.name, request.input) ?? '')),
        cliCommandRules(),
      ),
      maxTurns,
      context,
      // AGENTS.md and the like, read as the extension reads them (projectInstructions.ts), said on stderr.
      projectInstructions: async () => {
        const found = await findProjectInstructions([workspace.root]);
        if (!flags.json) steering.io.stderr(projectInstructionsLine(found));
        return found;
      },
      environment: () => ({
        cwd: workspace.root,
        shell: commandShellName(),
        folders: [workspace.root],
      }),
      emit,
    });
    await agent.start();
    const done = await steering.run(
      agent,
      prompt !== undefined && parts.length > 0 ? { text: prompt, parts } : prompt,
      controller.signal,
    );
    if (!flags.json && transcript.file && extras.announceSession !== false)
      io.stderr(`(session kept in ${transcript.file}; continue it with --resume)\n`);
    return done.status === 'completed' ? ExitCode.ok : ExitCode.failed;
  } catch (error) {
    io.stderr(`${name}: ${failureLine(error)}\n`);
    return ExitCode.failed;
  } finally {
    // Every way out closes the socket: an open one would keep the process alive after the reason is printed.
    session?.close(false);
    process.removeListener('SIGINT', onSigint);
    await server?.close();
    await tools?.close();
    await sessions.stopAll();
  }
}
