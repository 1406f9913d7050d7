import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { BUILTIN_TOOLS, BackgroundCommands, ReadLedger, type ToolContext, ToolRegistry, toolsNamed } from '../tools';
import { Agent, type RequestChoices } from './agentLoop';
import type { ApprovalPolicy } from './approvals/approvals';
import type { AgentEventSink } from './events';
import { standingInstructions } from './instructions/instructions';
import { type ModelOptions, modelFields } from './model/modelOptions';
import { contextPlan } from './conversation/contextWindow';
import { type EnvironmentFacts, environmentReader } from './instructions/environmentContext';
import { modelProfile } from './model/modelCatalogue';
import { type PlanToolSetting, planToolOffered } from './approvals/planMode';
import type { ProjectInstructions } from './instructions/projectInstructions';
import type { AgentHooks } from './hooks/agentHooks';
import type { FoundSkills } from './skills/skillDiscovery';
import type { ProxySettings } from './transport/proxy';
import { RequestDump } from './transport/requestDump';
import type { TransportOptions } from './transport/transportOptions';
import { ModelTransport, type TransportMode } from './transport/modelTransport';
import { Transcript } from './conversation/transcript';
import { type Child, type ChildSpec, SubagentPool } from './subagents/subagentPool';
import { type SubagentLimits, childApprovals, spawns } from './subagents/subagentLimits';
import {
  type AgentChoiceSpec,
  asCustomAgent,
  chosenAgent,
  modelOf,
  subagentChoice,
  withAgentInstructions,
  withChosenAgent,
} from './customAgents/agentChoice';
import type { CustomAgent } from './customAgents/customAgentDiscovery';

// What `loopwire exec` and the extension's window session build alike, so that the two composition roots
// differ only in where their settings come from: the model transport to an endpoint, the agents on it
// (Loopwire's instructions, the tools its model and workspace are offered, the model's request fields), and
// a new session's id and transcript (docs/agent-loop.md).

/** The model when neither `--model` nor the `loopwire.model` setting names one. */
export const DEFAULT_MODEL = 'gpt-5.5';

/**
 * An endpoint as a session's base URL: a WebSocket URL becomes its HTTP one and a trailing `/responses` is
 * dropped, so `wss://host/v1/responses` and `https://host/v1` name the same endpoint.
 */
export function normalizeEndpoint(endpoint: string): string {
  return endpoint.replace(/^ws/, 'http').replace(/\/responses\/?$/, '');
}

/** A new session's id: when it started, then six random hex digits (`2025-01-02T03-04-05-678Z-a1b2c3`). */
export function newSessionId(now: Date = new Date()): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`;
}

/** A new session's transcript, kept as `ID.jsonl` in `dir`; `workspace` names the folder(s) it works on. */
export function newTranscript(dir: string, header: { workspace: string; model?: string | undefined }): Transcript {
  const id = newSessionId();
  return Transcript.create(
    { id, createdAt: new Date().toISOString(), workspace: header.workspace, model: header.model ?? DEFAULT_MODEL },
    path.join(dir, `${id}.jsonl`),
  );
}

export interface AgentSessionOptions {
  /** A Responses API base URL, in any form {@link normalizeEndpoint} accepts. */
  endpoint: string;
  apiKey?: string | undefined;
  transport: TransportMode;
  /** Extra headers on every request and upgrade (a gateway's `api-key`). */
  headers?: Record<string, string> | undefined;
  /** The proxy (proxy.ts): the environment's when not given; `{off: true}` for the embedded backend. */
  proxy?: ProxySettings | undefined;
  /** The transport's own events (connecting, retries, fallback…). */
  emit: AgentEventSink;
  /**
   * Send nothing: the first turn's body, as it would go over HTTP, goes here and the task stops with
   * `request_dumped` (`loopwire exec --dump-request`, requestDump.ts).
   */
  dumpRequest?: ((body: Record<string, unknown>) => void) | undefined;
}

/** What differs between two agents on one session: the model, the conversation and who approves. */
export interface AgentSpec extends AgentChoiceSpec {
  /** {@link DEFAULT_MODEL} when not given. */
  model?: string | undefined;
  /** Reasoning effort, summaries and verbosity; each field's default when not given. */
  modelOptions?: Partial<ModelOptions> | undefined;
  transcript: Transcript;
  tools: ToolContext;
  /** The tools offered and run: the built-in ones when not given, or with tools added at run time (MCP servers'). */
  registry?: ToolRegistry | undefined;
  approvals: ApprovalPolicy;
  /** Whether the plan tool is offered: `auto` (the default) as the model catalogue says (planMode.ts). */
  planTool?: PlanToolSetting | undefined;
  maxTurns?: number | undefined;
  /** End the task on an edit that ran, with no closing answer (an inline edit's; editEnd.ts). */
  endAfterEdit?: boolean | undefined;
  /** The WebSocket lane, for a conversation that runs beside another on the socket. */
  lane?: string | undefined;
  /**
   * The context window (input tokens; the model's from the table when not given) and where to compact: a
   * share of it (0.8, the default) or a percentage; 0 turns compaction off.
   */
  context?: { window?: number | undefined; compactAt?: number | undefined } | undefined;
  /**
   * Read before every request: the model and its options as the user chose them since (the panel's pickers
   * write settings), each field given winning over `model` and `modelOptions`. The next request goes with
   * them, on the same chain (`previous_response_id` does not depend on the model or its fields).
   */
  choices?: (() => FrontChoices) | undefined;
  /** The project's instructions, read at the start of each task (`findProjectInstructions`); absent: none. */
  projectInstructions?: (() => Promise<ProjectInstructions | undefined>) | undefined;
  /** The skills of the workspace and the user, read at the start of each task (`findSkills`); absent: none. */
  skills?: (() => Promise<FoundSkills | undefined>) | undefined;
  /** Skills were found before the agent was made: its standing instructions say how skills work. */
  skillsFound?: boolean | undefined;
  /**
   * Where the agent works (its folder, the shell commands run in, the workspace folders), read before every
   * request: with the date, time zone, OS and approval mode it is the `<environment_context>` item, sent again
   * when any of it changes (environmentContext.ts). Absent: none is sent.
   */
  environment?: (() => EnvironmentFacts) | undefined;
  /**
   * Let the agent start subagents (the subagent tools, where the model catalogue offers them): how many run at
   * once and how deep they nest (src/agent/subagents). Absent: none, and the tools are not offered.
   */
  subagents?: SubagentLimits | undefined;
  /** The hooks the user allowed (src/agent/hooks); absent where there are none: nothing runs around calls. */
  hooks?: AgentHooks | undefined;
  emit: AgentEventSink;
}

/** What the front end chose for the next request (AgentSpec's `choices`). */
export interface FrontChoices {
  model?: string | undefined;
  modelOptions?: Partial<ModelOptions> | undefined;
  /**
   * The tools offered narrowed to these names (ours, or VS Code's and Claude Code's mapped to ours:
   * toolNameAliases.ts): a prompt file's `tools`, for its prompt only. Absent: every tool the model is offered.
   */
  tools?: readonly string[] | undefined;
  /** The custom agent the chat goes with (the composer's agent picker); `null`: Loopwire's own; absent: the spec's. */
  agent?: CustomAgent | null | undefined;
}

/** One endpoint's model transport (one socket at a time), and the agents that share it. */
export interface AgentSession {
  readonly transport: ModelTransport;
  /** An agent on this session (call its `start()` before its first run). */
  agent(spec: AgentSpec): Agent;
  /** Closes the socket; `announce: false` when a task's `done` must stay the last event. */
  close(announce?: boolean): void;
}

/** What `model` and its options make of a request of `spec`'s agent: its tools, fields, window and instructions. */
function requestChoices(
  spec: AgentSpec,
  model: string,
  modelOptions: Partial<ModelOptions> | undefined,
  tools?: readonly string[],
): RequestChoices {
  const registry = spec.registry ?? BUILTIN_TOOLS;
  const profile = modelProfile(model);
  const named = tools === undefined ? undefined : toolsNamed(tools, registry).tools;
  const offered = registry.offer(model, {
    capabilities: spec.tools.workspace.capabilities,
    editStyle: profile.editTool,
    planTool: planToolOffered(spec.planTool, profile.planTool),
    images: profile.images,
    sessions: spec.tools.sessions !== undefined,
    // Where commands may run in a sandbox, the model may ask to leave it.
    sandbox: spec.approvals.sandbox !== undefined,
    // The output budget `max_output_tokens` names is the one this model's calls get (ToolRunner's).
    outputTokens: profile.toolOutputTokens,
    agents: profile.subagents && spawns(spec.subagents),
  });
  const toolSpecs = named ? offered.filter((tool) => typeof tool.name === 'string' && named.has(tool.name)) : offered;
  return {
    model,
    toolSpecs,
    // What the calls may run: a tool the prompt file (or, in spec.registry, the custom agent) leaves out is
    // refused if called anyway, as an unknown tool is (runToolCall.ts), not only left unoffered.
    registry: named ? new ToolRegistry(registry.tools.filter((tool) => named.has(tool.name))) : registry,
    extra: modelFields(model, modelOptions),
    context: contextPlan(model, {
      ...(spec.context?.window === undefined ? {} : { window: spec.context.window }),
      ...(spec.context?.compactAt === undefined ? {} : { compactAt: spec.context.compactAt }),
    }),
    // Built from the tools this request offers: they never name a tool the model cannot call.
    instructions: standingInstructions(
      toolSpecs.flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : [])),
      registry,
      {
        parallelCalls: profile.parallelCalls === true,
        sandbox: spec.approvals.sandbox !== undefined,
        skills: spec.skillsFound === true,
      },
    ),
  };
}

/**
 * The request choices as the front end's `chosen` says now, over `spec`'s; built again only when the model
 * or its options changed (the tools' JSON Schemas are not free).
 */
function choicesReader(
  spec: AgentSpec,
  chosen: NonNullable<AgentSpec['choices']>,
  built: RequestChoices,
): () => RequestChoices {
  let last = { key: '', choices: built };
  // Asked several times a turn: the same answer as last time (composerChoices keeps its object until a
  // setting changes, and a new choice is a new object) is the same choices, with no key made of it.
  let seen: { now: FrontChoices; model: unknown; modelOptions: unknown; tools: unknown; agent: unknown } | undefined;
  return () => {
    const now = chosen();
    const same = seen && seen.now === now && seen.model === now.model && seen.modelOptions === now.modelOptions;
    if (same && seen?.tools === now.tools && seen?.agent === now.agent) return last.choices;
    seen = { now, model: now.model, modelOptions: now.modelOptions, tools: now.tools, agent: now.agent };
    const agent = chosenAgent(spec, now);
    const model = modelOf(spec, now.model, agent, DEFAULT_MODEL);
    const modelOptions = { ...spec.modelOptions, ...now.modelOptions };
    const key = JSON.stringify([model, modelOptions, now.tools ?? null, agent ?? null]);
    if (key !== last.key) last = { key, choices: agentRequest(spec, model, modelOptions, now.tools, agent) };
    return last.choices;
  };
}

/** The request choices of `spec` as `agent` makes them: its tools narrowed, its instructions after ours. */
function agentRequest(
  spec: AgentSpec,
  model: string,
  modelOptions: Partial<ModelOptions> | undefined,
  tools: readonly string[] | undefined,
  agent: CustomAgent | undefined,
): RequestChoices {
  const agentSpec = withChosenAgent(spec, agent);
  return withAgentInstructions(agentSpec, requestChoices(agentSpec, model, modelOptions, tools));
}

/** The environment item's reader: the facts, the approval mode and, where commands may be confined, the sandbox. */
function environmentOf(facts: NonNullable<AgentSpec['environment']>, approvals: ApprovalPolicy): () => string {
  const sandbox = approvals.sandbox?.bind(approvals);
  return environmentReader(facts, () => approvals.mode?.(), Date.now, sandbox ? () => sandbox() ?? 'none' : undefined);
}

/**
 * The subagents an agent of `spec` may start, each an agent of the same spec on its own lane and
 * conversation, one level deeper; none where it may not (src/agent/subagents).
 */
function poolFor(transport: ModelTransport, spec: AgentSpec): SubagentPool | undefined {
  const limits = spec.subagents;
  if (!limits || !spawns(limits)) return undefined;
  const child = ({ lane, transcript, emit, agentType, forked }: ChildSpec): Child => {
    // A fork's first request names the parent's last response (the server's fork onto a new stream) and
    // sends only what is new: the open calls' outputs and its task.
    if (forked) transport.forkLane(lane, spec.lane);
    // Its background commands are its own, stopped when it is: the parent's Stop or close_agent ends them.
    const sessions = spec.tools.sessions ? new BackgroundCommands() : undefined;
    const agent = newAgent(transport, {
      ...spec,
      // A custom agent its `agent_type` names, or none; its tools no more than its parent's.
      ...subagentChoice(spec, agentType),
      transcript,
      lane,
      emit,
      // What it read is its own: the parent's edits still need the parent's reads.
      tools: { ...spec.tools, reads: new ReadLedger(), ...(sessions ? { sessions } : {}) },
      approvals: childApprovals(spec.approvals, agentType),
      subagents: { ...limits, depth: (limits.depth ?? 0) + 1, bind: undefined },
      // Its tool calls meet the hooks; its prompt and end are the parent's business (no Stop of its own).
      hooks: spec.hooks?.forSubagent(),
    });
    return { agent, stopCommands: () => sessions?.stopAll() ?? Promise.resolve() };
  };
  const pool = new SubagentPool({
    parent: spec.transcript,
    makeChild: child,
    emit: spec.emit,
    maxRunning: limits.maxRunning,
  });
  limits.bind?.((id) => pool.close(id, undefined).then(() => undefined));
  return pool;
}

/** An agent of `spec` on the session's `transport`. */
function newAgent(transport: ModelTransport, given: AgentSpec): Agent {
  // As its custom agent makes it (tools narrowed, its model, its instructions); as given where it has none.
  const spec = asCustomAgent(given, DEFAULT_MODEL);
  // A chat's first request goes with the custom agent picked before it: its instructions head the context.
  const now = spec.choices?.();
  const picked = now?.agent ?? undefined;
  const model = picked ? modelOf(spec, now?.model, picked, DEFAULT_MODEL) : (spec.model ?? DEFAULT_MODEL);
  const built = agentRequest(spec, model, spec.modelOptions, undefined, picked ?? spec.customAgent);
  const pool = poolFor(transport, spec);
  return new Agent({
    transport,
    transcript: spec.transcript,
    tools: pool ? { ...spec.tools, agents: pool } : spec.tools,
    ...(pool ? { helpers: pool } : {}),
    // The first request's instructions head the context; a model picked later that is offered other tools
    // gets its own at the end of the chain (instructionsFollower.ts).
    ...built,
    // The agent's own tools (what a front end asks how a call shows); each request's calls run with its own.
    registry: spec.registry ?? BUILTIN_TOOLS,
    approvals: spec.approvals,
    emit: spec.emit,
    ...(spec.maxTurns === undefined ? {} : { maxTurns: spec.maxTurns }),
    ...(spec.lane === undefined ? {} : { lane: spec.lane }),
    ...(spec.endAfterEdit ? { endAfterEdit: true } : {}),
    ...(spec.choices ? { choices: choicesReader(spec, spec.choices, built) } : {}),
    ...(spec.projectInstructions ? { projectInstructions: spec.projectInstructions } : {}),
    ...(spec.skills ? { skills: spec.skills } : {}),
    ...(spec.environment ? { environment: environmentOf(spec.environment, spec.approvals) } : {}),
    ...(spec.hooks ? { hooks: spec.hooks } : {}),
  });
}

export function createAgentSession(options: AgentSessionOptions): AgentSession {
  const settings: TransportOptions = {
    endpoint: normalizeEndpoint(options.endpoint),
    transport: options.transport,
    emit: options.emit,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.proxy ? { proxy: options.proxy } : {}),
  };
  const transport = options.dumpRequest ? new RequestDump(settings, options.dumpRequest) : new ModelTransport(settings);
  return {
    transport,
    agent: (spec) => newAgent(transport, spec),
    close: (announce) => transport.close(announce),
  };
}
