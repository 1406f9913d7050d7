import type { z } from 'zod';
import type { EditedFile, InputImage } from '../protocol';
import type { Plan } from '../protocol/plan';
import type { SandboxPolicy } from '../sandbox';
import type { AgentControl } from './agentControl';
import type { Workspace } from '../workspace';
import type { BackgroundCommands } from './backgroundCommands';
import type { ReadLedger } from './readLedger';

/** What every tool returns: `output` is written for a model — compact, honest about caps, actionable. */
export interface ToolResult {
  ok: boolean;
  /** What the model is sent. */
  output: string;
  /** Images the model is shown after `output` (view_image): the call's output is then a list of parts. */
  images?: InputImage[];
  /**
   * The whole output in the model's words, where `output` was cut to the model's budget: what a program reading
   * `loopwire exec --json` gets as `tool_finished.output` (a contract: English in every language).
   */
  display?: string;
  /**
   * The whole output as the person watching reads it (the card, the terminal), in their language: its refusal
   * or first line translated (errorDisplay.ts). Only where a bundle other than English is loaded
   * (`translating()`); in English the person reads the model's words (`display ?? output`).
   */
  shown?: string;
  /** What an edit tool wrote, file by file: the hunks a reviewer can accept or take back one by one. */
  edits?: EditedFile[];
}

/** One file an edit wrote, by its workspace path (a move's destination for a move): the protocol's schema. */
export type { EditedFile };

/** What a tool call runs with: the user's workspace and what this session has read of it. */
export interface ToolContext {
  workspace: Workspace;
  reads: ReadLedger;
  /**
   * The chat's commands running in the background, which its host stops at Stop, a new chat and exit.
   * Absent: a command runs to its end (a host that could not stop them would leave them running).
   */
  sessions?: BackgroundCommands;
  /**
   * Tokens of a command's or task's output in one result, its head and tail kept (the model catalogue's, for
   * the model the call answers); a call's own `max_output_tokens` wins. Absent: Codex's 10,000.
   */
  outputTokens?: number;
  /** The OS sandbox this call's commands and tasks run in (the agent decides per call); absent: unconfined. */
  sandbox?: SandboxPolicy | undefined;
  /** The subagents this agent may start (the subagent tools' side of src/agent/subagents); absent: none. */
  agents?: AgentControl;
  /** The id of the call being run, which a subagent it starts names as its parent (the agent sets it per call). */
  callId?: string;
  /** The task's signal (its Stop), which a subagent the call starts runs under (the agent sets it per call). */
  signal?: AbortSignal;
}

/** What the model a request goes to makes of the tools' defaults, named in the schemas it is offered. */
export interface OfferedDefaults {
  /** Tokens of a command's output kept in one result (the model catalogue's `toolOutputTokens`). */
  outputTokens: number;
  /** Whether commands run in an OS sandbox, so that the model may ask to leave it. */
  sandbox?: boolean;
}

/** What a call does to the user's machine: reads run at once (side by side); writes and tasks are the approval policy's to allow. */
export type ToolEffect = 'read' | 'write' | 'task';

/** What a workspace must be able to do (its `capabilities`) for a tool to be offered. */
export type ToolNeed = 'writes' | 'tasks' | 'commands' | 'diagnostics';

/**
 * An offer a tool waits for besides the workspace's capabilities: `plan`, the plan tool, offered to the models
 * trained to keep a plan and where the user asks for it (`ToolOffer.planTool`); `sessions`, write_stdin,
 * offered where the host keeps commands running in the background (`ToolOffer.sessions`); `agents`, the
 * subagent tools, offered to the models trained on them where the agent may start subagents (`ToolOffer.agents`).
 */
export type ToolOptIn = 'plan' | 'sessions' | 'images' | 'agents';

/** The editing style a model is offered: apply_patch, or string replacements (edit_file and write_file). */
export type EditStyle = 'apply_patch' | 'edit_file';

/**
 * How a call's input, while the model is still writing it, previews as a diff (the edit engine's preview):
 * `patch`: the text is a patch (`*** Begin Patch` …); `replacements`: JSON arguments `{path, edits}`.
 */
export type LiveDiffKind = 'patch' | 'replacements';

/**
 * How a front end shows a call's output. `diff`: an edit's answer, ending in the unified diff of what it
 * wrote. `tail`: a first line saying how the run went, then its output, whose end (the result, the errors)
 * matters most. Absent: lines read from the top.
 */
export type OutputShape = 'diff' | 'tail';

/** What an approval shows of a call before it runs: the action in words, then exactly what it will do. */
export interface ApprovalView {
  /** What Allow does, in words, before its object: `Run command`. */
  action: string;
  /** What it acts on, shown as code after the words: the command line. */
  object: string;
  /** All a person must see, exactly: the command line and the folder it runs in. */
  detail: string;
}

/** A tool that also takes its input as one string (a freeform, `custom` tool): the string is its `input` argument. */
export interface FreeformInput {
  /** The Lark grammar the model's freeform input is constrained by. */
  grammar: string;
  /** Whether text a person typed (`loopwire tool`) is freeform input rather than JSON arguments. */
  recognizes(text: string): boolean;
}

/**
 * One tool: a zod schema for its arguments (the JSON Schema the model sees comes from it), its behaviour, and
 * what the rest of the program asks of it (approvals, the offer, the live diff, the card and terminal line).
 * Consumers never name a tool; they ask the tool set (`toolSet.ts`).
 */
export interface ToolDefinition<Args extends z.ZodType = z.ZodType> {
  name: string;
  /** For the model: what the tool does and when to use it. */
  description: string;
  args: Args;
  /**
   * The JSON Schema of the arguments as the model is offered it, when it is not `args`'s own: a tool known
   * only at run time (an MCP server's) carries the schema its server gave, and `args` only checks that the
   * arguments are an object.
   */
  parameters?: Record<string, unknown>;
  /**
   * The argument schema as a model is offered it, where a description names a default that is the model's
   * own (a command's output budget): the model is told what it gets. Calls are still parsed with `args`.
   * Absent: `args`.
   */
  offeredArgs?(defaults: OfferedDefaults): z.ZodType;
  effect: ToolEffect;
  /** Offered only where the workspace can do this (and, for writes and tasks, only when it is trusted). */
  requires?: ToolNeed;
  /** Offered only to models of this editing style. */
  editStyle?: EditStyle;
  /** Offered only where the offer opts in (`ToolOffer.planTool` for `plan`). */
  optIn?: ToolOptIn;
  freeform?: FreeformInput;
  liveDiff?: LiveDiffKind;
  outputShape?: OutputShape;
  /**
   * One short line saying what the call asks for (a card's title, the CLI's line per call), from its input
   * as the model wrote it (JSON arguments or freeform text), possibly still streaming. Default: the main
   * argument (`mainArgument`).
   */
  summarize?(input: string): string;
  /**
   * What a person deciding whether to let a call run must see of it, from its whole input (JSON arguments or
   * freeform text): for a shell command, its exact command line and the folder it runs in. Absent: the host
   * says what it knows (an edit's diff, a workspace task's command, the arguments as given).
   */
  approval?(input: string): ApprovalView | undefined;
  /**
   * The workspace paths a call reads or changes, from its whole input, as a card links them (relative to the
   * workspace, as the model wrote them). Absent: none.
   */
  paths?(input: string): string[];
  /**
   * The task's plan as a call sets it, from its whole input (the front ends' checklist); undefined for input
   * the call would refuse. Absent: the tool keeps no plan.
   */
  plan?(input: string): Plan | undefined;
  run(args: z.output<Args>, context: ToolContext): Promise<ToolResult>;
}

/** Keeps each tool's argument type while listing tools of different schemas together. */
export function defineTool<Args extends z.ZodType>(tool: ToolDefinition<Args>): ToolDefinition<Args> {
  return tool;
}

export const success = (output: string): ToolResult => ({ ok: true, output });
export const failure = (output: string): ToolResult => ({ ok: false, output });
