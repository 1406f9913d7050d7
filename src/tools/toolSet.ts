import type { CustomTool, FunctionTool } from '../protocol';
import { applyPatchTool } from './applyPatch';
import { closeAgentTool } from './closeAgent';
import { editFileTool } from './editFile';
import { execCommandTool } from './execCommand';
import { findFilesTool } from './findFiles';
import { getDiagnosticsTool } from './getDiagnostics';
import { listTasksTool } from './listTasks';
import { readFileTool } from './readFile';
import { runTaskTool } from './runTask';
import { searchTextTool } from './searchText';
import { sendInputTool } from './sendInput';
import { spawnAgentTool } from './spawnAgent';
import type { LiveDiffKind, OutputShape, ToolDefinition, ToolEffect } from './tool';
import { type ToolAvailability, type ToolOffer, ToolRegistry } from './toolRegistry';
import { updatePlanTool } from './updatePlan';
import { viewImageTool } from './viewImage';
import { waitAgentsTool } from './waitAgents';
import { writeFileTool } from './writeFile';
import { writeStdinTool } from './writeStdin';

/** Every tool, by the name the model calls it (a contract: scenario files and outside tests use these). */
export const TOOLS = {
  find_files: findFilesTool,
  search_text: searchTextTool,
  read_file: readFileTool,
  edit_file: editFileTool,
  apply_patch: applyPatchTool,
  write_file: writeFileTool,
  get_diagnostics: getDiagnosticsTool,
  list_tasks: listTasksTool,
  run_task: runTaskTool,
  exec_command: execCommandTool,
  write_stdin: writeStdinTool,
  update_plan: updatePlanTool,
  view_image: viewImageTool,
  spawn_agent: spawnAgentTool,
  send_input: sendInputTool,
  wait: waitAgentsTool,
  close_agent: closeAgentTool,
} as const satisfies Record<string, ToolDefinition>;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

/** The tool that runs a shell command line: the model catalogue's shell column (src/agent/model/modelCatalogue.ts). */
export const SHELL_TOOL: string = execCommandTool.name;

/** The tools a front end nests a subagent under (spawn) and lists answers on (wait): the chat panel's cards. */
export const SUBAGENT_TOOLS: { readonly spawn: string; readonly wait: string } = {
  spawn: spawnAgentTool.name,
  wait: waitAgentsTool.name,
};

/** The built-in tools as a set: what every consumer asks about a tool by name (the functions below). */
export const BUILTIN_TOOLS = new ToolRegistry(Object.values<ToolDefinition>(TOOLS));

/** What a call does to the user's machine; an unknown tool reads nothing (it only answers with an error). */
export const toolEffect = (name: string): ToolEffect => BUILTIN_TOOLS.effect(name);

/** One short line saying what a call asks for, from its input as the model wrote it (possibly still streaming). */
export const summarizeCall = (name: string, input: string): string => BUILTIN_TOOLS.summarize(name, input);

/** How the call's streamed input previews as a diff; undefined: it does not. */
export const liveDiffKind = (name: string): LiveDiffKind | undefined => BUILTIN_TOOLS.liveDiff(name);

/** How a front end shows the call's output: `diff`, `tail`, or undefined (lines from the top). */
export const outputShape = (name: string): OutputShape | undefined => BUILTIN_TOOLS.outputShape(name);

/** Whether the tool takes freeform input (one string, its `input` argument) besides JSON arguments. */
export const takesFreeform = (name: string): boolean => BUILTIN_TOOLS.takesFreeform(name);

/** Whether `text` a person gave for the tool is its freeform input rather than JSON arguments. */
export const isFreeformInput = (name: string, text: string): boolean => BUILTIN_TOOLS.isFreeformInput(name, text);

/** The names of the tools offered where they run (an untrusted workspace: no writes, no tasks). */
export const toolsAvailable = (where: ToolAvailability = {}): string[] =>
  BUILTIN_TOOLS.available(where).map((tool) => tool.name);

/** The `tools` of a request for `model`: every tool but the editing style it is not offered. */
export function toolsFor(model: string, offer: ToolOffer = {}): (FunctionTool | CustomTool)[] {
  return BUILTIN_TOOLS.offer(model, offer);
}
