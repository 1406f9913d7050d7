// The run of `loopwire exec` once its flags, workspace and transcript are in hand: the backend (embedded or
// not), the tools, the agent on its session, the task to its end; and every way out closes what was opened.
import {
  type Agent,
  type AgentEvent,
  type ApprovalMode,
  type AgentSession,
  type PromptWithParts,
  type Transcript,
  contextWindowFor,
  createAgentSession,
  findProjectInstructions,
  type CustomAgent,
  type FrontChoices,
  stricterMode,
} from '../../agent';
import type { McpConfig } from '../../mcp/mcpConfig';
import type * as Server from '../../server';
import type { LoopwireServer, ScenarioFile } from '../../server';
import { BackgroundCommands, ReadLedger, type ToolRegistry } from '../../tools';
import type { NodeWorkspace } from '../../workspace/node/nodeWorkspace';
import { commandShellName } from '../../workspace/shared/userShell';
import { type CliIo, ExitCode } from '../cliIo';
import { type Unanswered, execApprovals } from './execApprovals';
import { EXEC_NAME, type ExecFlags, type ExecOptions } from './execOptions';
import type { ExecHost } from './execSandbox';
import { ExecRenderer, NO_TERMINAL } from './execRenderer';
import { SubagentLines } from './subagentLines';
import { onExitSignals } from './exitSignals';
import { projectInstructionsLine } from './instructionsSummary';
import { skillsReader } from './skillsReport';
import { narrowedTools } from './execSlash';
import { type ExecTools, startExecTools } from './mcpSetup';
import { execHooks } from './hooksSetup';
import { type ExecAgents, agentSpecOf, sayAgent } from './execAgent';
import { handoffLines, handoffOffers, withHandoffs } from './execHandoffs';
import { sessionLine } from './sessionLines';
import { failureLine } from './stopAdvice';
import { reviewEvent, reviewExitCode, reviewText } from './reviewLines';
import { type Steering, terminalSteering } from './terminalSteering';
import { t } from '../cliL10n';

/** The approval modes a prompt may have of its own (`/plan`, a prompt file's `agent: ask` or `plan`). */
export type PromptMode = 'plan' | 'read-only';

/** How a user of the embedded backend adds a scenario: the end of the answer to a prompt none matches. */
const SCENARIO_HINT = 'add --scenario FILE to loopwire exec';

export interface ExecExtras {
  /** Say where the session is kept (not for a demo whose folder is removed afterwards). */
  announceSession?: boolean;
  /** The terminal and the sandbox support to assume (tests); default: this process's. */
  host?: ExecHost;
}

/** All a run needs, prepared by execCommand. */
export interface ExecRun {
  options: ExecOptions;
  workspace: NodeWorkspace;
  prompt: string | PromptWithParts | undefined;
  mcpConfig: McpConfig;
  color: boolean;
  /** The bundled backend's module and its scenarios; absent against an endpoint. */
  backend: { module: typeof Server; scenarios: ScenarioFile[] } | undefined;
  transcript: Transcript;
  /** A prompt file's `tools` (`/name`, execSlash.ts): its prompt's tools narrowed to them; undefined: not narrowed. */
  toolNames?: string[] | undefined;
  /** A prompt file's model, for its prompt only (not those queued after it); undefined: the run's. */
  promptModel?: string | undefined;
  /** A prompt file's `agent`: the custom agent its prompt runs as (`null`: Loopwire's own); undefined: the run's. */
  promptAgent?: CustomAgent | null | undefined;
  /** `/plan`'s mode, or a prompt file's `agent: ask`/`plan`, for its prompt only; undefined: the run's (--approve). */
  promptMode?: PromptMode | undefined;
  /** `/review`: the findings of the answer are read and printed once the task completes (reviewLines.ts). */
  review?: boolean | undefined;
  /** `/compact` with --resume: the kept conversation compacted, no prompt sent. */
  compact?: boolean | undefined;
  /** --agent's custom agent, and those a subagent may be started as (execAgent.ts). */
  agents?: ExecAgents | undefined;
}

/**
 * How the agent's events are printed: JSON Lines with --json, else for people, by the renderer. A call
 * declined for want of a terminal is said as such: on its line, or on stderr beside --json's stream.
 */
function eventPrinter(
  flags: ExecFlags,
  out: CliIo,
  color: boolean,
  tools: ToolRegistry,
  unanswered: Unanswered,
): (event: AgentEvent) => void {
  if (flags.json)
    return (event) => {
      out.stdout(`${JSON.stringify(event)}\n`);
      if (event.type === 'tool_finished' && event.declined && unanswered.has(event.callId))
        out.stderr(`(${event.name} ${NO_TERMINAL})\n`);
    };
  const verbose = flags.verbose === true;
  const noTerminal = (callId: string) => unanswered.has(callId);
  // A subagent's events print indented, under the task's, each line naming it.
  const subagents = new SubagentLines({ stdout: out.stdout, stderr: out.stderr, color, verbose, tools, noTerminal });
  const renderer = new ExecRenderer(subagents.taskTarget);
  return (event) => {
    if (!subagents.handle(event)) renderer.handle(event);
  };
}

/** What a run opened, each closed however it ends. */
interface Opened {
  server?: LoopwireServer;
  tools?: ExecTools;
  session?: AgentSession;
}

/** Runs the task to its end; whatever happens, the socket, the backend, the MCP servers and the commands go. */
export async function runExec(run: ExecRun, io: CliIo, extras: ExecExtras): Promise<ExitCode> {
  const opened: Opened = {};
  const controller = new AbortController();
  // Commands left running in the background: each said on stderr, and all stopped however exec ends. Said
  // through the steering's output once there is one, so a line being typed is not broken by it.
  let say = io.stderr;
  const sessions = new BackgroundCommands((event) => say(sessionLine(event)));
  // Ctrl+C, SIGTERM or a closed terminal: the task stops, and the commands' groups are told to go at once
  // (a tool waiting on one of them returns as it ends), not only once the turn has wound down.
  // The groups are signalled first: after SIGHUP the terminal is gone, and what the stopping task prints
  // there may fail.
  const restoreSignals = onExitSignals(() => {
    void sessions.stopAll();
    controller.abort();
  });
  try {
    const tools = await startBackendAndTools(run, io, opened);
    // On a terminal the user can steer the task as it runs; its output waits while they type a line.
    const steering = terminalSteering(io, run.color);
    say = steering.io.stderr;
    return await runTask(run, io, extras, { opened, registry: tools.registry, steering, sessions }, controller.signal);
  } catch (error) {
    io.stderr(`${EXEC_NAME}: ${failureLine(error)}\n`);
    return ExitCode.failed;
  } finally {
    // Every way out closes the socket: an open one would keep the process alive after the reason is printed.
    opened.session?.close(false);
    // The commands first: a signal during the rest of the way out then ends exec as by default.
    await sessions.stopAll();
    restoreSignals();
    await opened.server?.close();
    await opened.tools?.close();
  }
}

/** The embedded backend (where the run has one) and the tools, kept in `opened` as each starts. */
async function startBackendAndTools(run: ExecRun, io: CliIo, opened: Opened): Promise<ExecTools> {
  // The embedded backend reads the window the agent manages: the model's own, or --context-window's.
  if (run.backend)
    opened.server = await run.backend.module.startServer({
      scenarios: run.backend.scenarios,
      scenarioHint: SCENARIO_HINT,
      contextWindow: contextWindowFor(run.options.model, run.options.context.window),
    });
  // The MCP servers' tools join the built-in ones (their lines go to stderr, like transport notes).
  const where = { approve: run.options.approve, sandbox: run.options.sandbox, roots: [run.workspace.root] };
  let tools = await startExecTools(run.mcpConfig, (line) => io.stderr(`(${line})\n`), where);
  opened.tools = tools;
  // A review's tools are the whole run's (nothing that writes, whatever is queued after it); a prompt file's
  // are its prompt's own (promptChoices), its names that stand for no tool said here once.
  if (run.toolNames) {
    const narrowed = narrowedTools(tools.registry, run.toolNames, io.stderr);
    if (run.review) tools = { ...tools, registry: narrowed };
  }
  sayAgent(run.agents?.agent, tools.registry, io.stderr);
  return tools;
}

/** The parts runTask works with, started by runExec. */
interface TaskParts {
  opened: Opened;
  registry: ToolRegistry;
  steering: Steering;
  sessions: BackgroundCommands;
}

/** The session opened, the agent started on it, the task run to its end; its exit code. */
async function runTask(
  run: ExecRun,
  io: CliIo,
  extras: ExecExtras,
  { opened, registry, steering, sessions }: TaskParts,
  signal: AbortSignal,
): Promise<ExitCode> {
  // One printer for the session's events and the agent's: the renderer keeps what it has shown.
  const unanswered: Unanswered = new Set();
  const print = eventPrinter(run.options.flags, steering.io, run.color, registry, unanswered);
  // The task's answer (not a subagent's, not a progress note): a review's findings are read from it.
  let answer = '';
  const own = promptChoices(run);
  // A custom agent's handoffs: the commands that continue its completed task (no buttons in a terminal).
  const offers = handoffOffers(
    run.promptAgent === undefined ? run.agents?.agent : run.promptAgent,
    run.transcript.file,
    run.options.approve,
  );
  const emit = (event: AgentEvent) => {
    if (event.type === 'message' && event.agent === undefined && event.phase !== 'commentary') answer = event.text;
    if (event.type === 'done' && event.agent === undefined) own.over();
    print(event.type === 'done' ? withHandoffs(event, offers) : event);
  };
  const session = openSession(run, emit, opened.server);
  opened.session = session;
  const parts = { steering, emit, session, registry, sessions, unanswered, own };
  const agent = await startAgent(run, parts);
  if (run.compact) return compactKept(agent, signal, io);
  const done = await steering.run(agent, run.prompt, signal);
  const { flags } = run.options;
  if (!flags.json && run.transcript.file && extras.announceSession !== false)
    io.stderr(`${t('(session kept in {0}; continue it with --resume)', run.transcript.file)}\n`);
  if (!flags.json && done.status === 'completed' && extras.announceSession !== false) io.stderr(handoffLines(offers));
  if (run.review && done.status === 'completed') return printReview(answer, run, print, steering.io);
  return done.status === 'completed' ? ExitCode.ok : ExitCode.failed;
}

/** `/compact`: the resumed conversation compacted (the renderer prints the agent's `compacted` line). */
async function compactKept(agent: Agent, signal: AbortSignal, io: CliIo): Promise<ExitCode> {
  const made = await agent.compact(signal);
  if (made === undefined) io.stderr(`${t('(nothing to compact: the conversation is already its summary)')}\n`);
  return ExitCode.ok;
}

/** A review's findings: one `review` event in --json's stream, else lines after the answer; the exit code. */
function printReview(answer: string, run: ExecRun, print: (event: AgentEvent) => void, out: CliIo): ExitCode {
  const event = reviewEvent(answer, run.workspace.root);
  if (run.options.flags.json) print(event);
  else out.stdout(reviewText(event, run.color));
  return reviewExitCode(event);
}

/** The agent session on the embedded backend or the endpoint. */
function openSession(run: ExecRun, emit: (event: AgentEvent) => void, server: LoopwireServer | undefined) {
  const { options } = run;
  const apiKey = server ? undefined : process.env.OPENAI_API_KEY;
  // The key is the agent's, not the workspace's: tasks inherit this process's environment, and one that
  // prints it (a test dumping `env`) would put the key in the tool's output, the transcript and the
  // model's context. So no task gets it (test/unit/reliability/secrets.test.ts).
  delete process.env.OPENAI_API_KEY;
  return createAgentSession({
    endpoint: server ? server.url : options.endpoint,
    transport: options.transport,
    emit,
    headers: options.request.headers,
    apiKey,
    // The embedded backend is in this process: never through a proxy. An endpoint follows the environment.
    ...(server ? { proxy: { off: true } } : {}),
  });
}

/** The agent with the run's model, tools, approvals and context, started (its project instructions read). */
async function startAgent(
  run: ExecRun,
  parts: {
    steering: Steering;
    emit: (event: AgentEvent) => void;
    session: AgentSession;
    registry: ToolRegistry;
    sessions: BackgroundCommands;
    unanswered: Unanswered;
    own: PromptOwn;
  },
) {
  const { options, workspace } = run;
  const { steering, registry, emit } = parts;
  const say = (line: string) => steering.io.stderr(line);
  const projectInstructions = instructionsReader(workspace.root, options.flags.json === true, say);
  // The skills, read once before the agent is made so that its instructions say how they work where there are any.
  const skills = skillsReader([workspace.root], say);
  const skillsFound = (await skills()).skills.length > 0;
  // The user's hooks and those --hooks names (a workspace's run only so); none: the agent holds none.
  const { header, file } = run.transcript;
  const { mode, choices } = parts.own;
  const facts = { root: workspace.root, sessionId: header.id, transcriptPath: file ?? '', ...options, mode };
  const hooks = execHooks(options.flags.hooks, facts, say);
  const agent = parts.session.agent({
    model: options.model,
    modelOptions: options.request.modelOptions,
    transcript: run.transcript,
    tools: { workspace, reads: new ReadLedger(), sessions: parts.sessions },
    registry,
    approvals: execApprovals({
      options,
      workspace,
      registry,
      asking: (ask) => steering.asking(ask),
      unanswered: parts.unanswered,
      mode,
    }),
    maxTurns: options.maxTurns,
    context: options.context,
    projectInstructions,
    skills,
    skillsFound,
    environment: () => ({ cwd: workspace.root, shell: commandShellName(), folders: [workspace.root] }),
    // The model may hand parts of the task to subagents; exec ends only once they have.
    subagents: {},
    ...agentSpecOf(run.agents),
    ...(hooks ? { hooks } : {}),
    ...(choices ? { choices } : {}),
    emit,
  });
  await agent.start();
  return agent;
}

/**
 * AGENTS.md and the like, read as the extension reads them (projectInstructions.ts), said on `say` (not with
 * --json). The first lookup starts now, while the socket warms up, not between the warm-up and the prompt.
 */
function instructionsReader(root: string, json: boolean, say: (line: string) => void) {
  let early: ReturnType<typeof findProjectInstructions> | undefined = findProjectInstructions([root]);
  // Handled where it is awaited; a run that stops before its prompt never awaits it, and must not crash on it.
  early.catch(() => undefined);
  return async () => {
    const found = await (early ?? findProjectInstructions([root]));
    early = undefined;
    if (!json) say(projectInstructionsLine(found));
    return found;
  };
}

/** The first prompt's own choices and mode, for as long as its task runs (`over()` when it ends). */
interface PromptOwn {
  /** Its model, tools and agent (undefined where it names none). */
  choices: (() => FrontChoices) | undefined;
  /** The approval mode in force, read at each call and request: its own while it runs, then the run's. */
  mode: () => ApprovalMode;
  over(): void;
}

/**
 * A prompt file's model, tools and agent, and `/plan`'s (or its `agent`'s) mode, as the first prompt's own: they
 * hold until its task is over (`over()`: its `done`, which comes once its subagents are done or stopped), and the
 * prompts queued after it go with the run's model, every tool and the run's mode, as in the panel (promptTurn.ts).
 */
function promptChoices(run: ExecRun): PromptOwn {
  let running = true;
  const runMode = run.options.approve;
  // Its own mode narrows the run's, never widens it (an `ask` prompt in a plan run stays in plan).
  const mode = () => (running ? stricterMode(runMode, run.promptMode) : runMode);
  const over = () => void (running = false);
  if (run.promptModel === undefined && run.toolNames === undefined && run.promptAgent === undefined)
    return { choices: undefined, mode, over };
  // The same objects each time: the agent builds a request's tools again only when its choices change.
  const first: FrontChoices = {
    ...(run.promptModel === undefined ? {} : { model: run.promptModel }),
    ...(run.toolNames === undefined ? {} : { tools: run.toolNames }),
    ...(run.promptAgent === undefined ? {} : { agent: run.promptAgent }),
  };
  const after: FrontChoices = {};
  return { choices: () => (running ? first : after), mode, over };
}
