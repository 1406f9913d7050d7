import { z } from 'zod';
import type { CustomTool, FunctionTool } from '../protocol';
import { APPLY_PATCH_GRAMMAR, applyPatchTool } from './applyPatch';
import { editFileTool } from './editFile';
import { findFilesTool } from './findFiles';
import { getDiagnosticsTool } from './getDiagnostics';
import { listTasksTool } from './listTasks';
import { readFileTool } from './readFile';
import { runTaskTool } from './runTask';
import { searchTextTool } from './searchText';
import type { ToolDefinition } from './tool';
import { writeFileTool } from './writeFile';

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
} as const satisfies Record<string, ToolDefinition>;

export type ToolName = keyof typeof TOOLS;
export const TOOL_NAMES = Object.keys(TOOLS) as ToolName[];

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

/** Which editing tools a model is offered. */
export type EditStyle = 'apply_patch' | 'edit_file';

export interface ToolOffer {
  /** Default: from the model's name (`auto`). */
  editStyle?: EditStyle | 'auto';
  /** How apply_patch is offered: a freeform tool with Codex's grammar (default) or a function `{input}`. */
  applyPatchAs?: 'custom' | 'function';
  /** Leave out tools the workspace cannot run (diagnostics without a language service…). */
  capabilities?: { diagnostics: boolean; tasks: boolean; writes?: boolean };
}

/** GPT and Codex models are trained on apply_patch; others do better with string replacements. */
export function editStyleFor(model: string): EditStyle {
  return /^(gpt-|o\d|codex|computer-use)/i.test(model.replace(/^.*\//, '')) ? 'apply_patch' : 'edit_file';
}

/** A tool's argument schema as the JSON Schema a request carries. */
export function parametersOf(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.args, { io: 'input' }) as Record<string, unknown>;
  return schema;
}

function functionTool(tool: ToolDefinition): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: parametersOf(tool),
    strict: false,
  };
}

/** The `tools` of a request for `model`: every tool but the editing style it is not offered. */
export function toolsFor(model: string, offer: ToolOffer = {}): (FunctionTool | CustomTool)[] {
  const style = !offer.editStyle || offer.editStyle === 'auto' ? editStyleFor(model) : offer.editStyle;
  const names = TOOL_NAMES.filter((name) => {
    const writes = offer.capabilities?.writes ?? true;
    if (name === 'apply_patch') return writes && style === 'apply_patch';
    if (name === 'edit_file' || name === 'write_file') return writes && style === 'edit_file';
    if (name === 'get_diagnostics') return offer.capabilities?.diagnostics ?? true;
    if (name === 'list_tasks' || name === 'run_task') return offer.capabilities?.tasks ?? true;
    return true;
  });
  return names.map((name) => {
    const tool: ToolDefinition = TOOLS[name];
    if (name === 'apply_patch' && (offer.applyPatchAs ?? 'custom') === 'custom') {
      return {
        type: 'custom',
        name,
        description: tool.description,
        format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
      };
    }
    return functionTool(tool);
  });
}
