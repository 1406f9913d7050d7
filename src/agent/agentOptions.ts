import type { AnyTool } from '../protocol';
import type { ToolContext, ToolRegistry } from '../tools';
import type { ApprovalPolicy } from './approvals/approvals';
import type { ContextPlan } from './conversation/contextWindow';
import type { AgentEventSink } from './events';
import type { ProjectInstructions } from './instructions/projectInstructions';
import type { AgentHooks } from './hooks/agentHooks';
import type { FoundSkills } from './skills/skillDiscovery';
import type { ModelTransport } from './transport/modelTransport';
import type { Transcript } from './conversation/transcript';

// What an agent is built with (agentLoop.ts), apart from the loop that uses it.

export interface AgentOptions {
  transport: ModelTransport;
  transcript: Transcript;
  tools: ToolContext;
  /**
   * The tools the calls run with and are asked about (effect, approvals): the built-in ones when not given,
   * or a set with tools added at run time (MCP servers', the editor's). `toolSpecs` is what is offered of it.
   */
  registry?: ToolRegistry;
  model: string;
  /**
   * The standing instructions for `toolSpecs`: the context's first item. Where the front end's choices offer
   * other tools later, their instructions go at the end of the chain instead (instructionsFollower.ts).
   */
  instructions: string;
  toolSpecs: readonly AnyTool[];
  approvals: ApprovalPolicy;
  /** Model responses per task. */
  maxTurns?: number;
  /**
   * End the task once a response's calls were edits that all ran, with no request for a closing answer: an
   * inline edit's, whose streamed edit is its answer (editEnd.ts). A failed edit goes back to the model.
   */
  endAfterEdit?: boolean;
  /** Request fields passed as given (reasoning effort, include…). */
  extra?: Record<string, unknown>;
  /**
   * The WebSocket lane (`stream_id`) of this conversation, when it shares the session's socket with another
   * running at the same time (a chat and a quick fix); absent: the default lane.
   */
  lane?: string;
  /**
   * The model's window and where to compact (contextWindow.ts). With a threshold, every request asks the
   * server to compact past it, and a context that overflowed anyway is compacted on request and sent again.
   */
  context?: ContextPlan;
  /**
   * Read before every request: what the front end chose since (a picker in the panel) — the model, its tools
   * and fields, its window. It takes effect at the next request, on the same chain; absent: the above.
   */
  choices?: () => RequestChoices;
  /**
   * Read at the start of each task with a prompt: the project's instructions (AGENTS.md…), added to the
   * transcript before the prompt when new or changed (projectInstructions.ts); undefined sends none.
   */
  projectInstructions?: () => Promise<ProjectInstructions | undefined>;
  /**
   * Read at the start of each task with a prompt: the skills of the workspace and the user, listed after the
   * project instructions when new or changed (src/agent/skills); undefined lists none.
   */
  skills?: () => Promise<FoundSkills | undefined>;
  /** Read before every request: the `<environment_context>` text now (environmentContext.ts); undefined: none. */
  environment?: () => string | undefined;
  emit: AgentEventSink;
  /** The session's hooks (src/agent/hooks), run around tool calls, prompts and the task's end; absent: none. */
  hooks?: AgentHooks;
  /** The subagents this agent may start, which each task waits for or stops before its `done` (src/agent/subagents). */
  helpers?: TaskHelpers;
}

/** What outlives a tool call but not the task, settled before the task's `done`. */
export interface TaskHelpers {
  /** Resolves once nothing the task started still runs: waited for when it `completed`, else stopped. */
  settle(status: string): Promise<void>;
}

/**
 * What a request is sent with that the user may change between two requests of one conversation. Its
 * `registry`, where given, is what its calls may run: the tools a custom agent or a prompt file narrows to
 * (not only those offered); absent: the agent's own.
 */
export type RequestChoices = Pick<
  AgentOptions,
  'model' | 'toolSpecs' | 'extra' | 'context' | 'instructions' | 'registry'
>;
