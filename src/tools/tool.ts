import type { z } from 'zod';
import type { Hunk, TextFormat } from '../edit';
import type { Workspace } from '../workspace';
import type { ReadLedger } from './readLedger';

/** What every tool returns: `output` is written for a model — compact, honest about caps, actionable. */
export interface ToolResult {
  ok: boolean;
  output: string;
  /** What an edit tool wrote, file by file: the hunks a reviewer can accept or take back one by one. */
  edits?: EditedFile[];
}

/** One file an edit wrote, by its workspace path (a move's destination for a move). */
export interface EditedFile {
  path: string;
  op: 'create' | 'delete' | 'move' | 'update';
  /** A move's source. */
  movedFrom?: string;
  hunks: Hunk[];
  format: TextFormat;
}

/** What a tool call runs with: the user's workspace and what this session has read of it. */
export interface ToolContext {
  workspace: Workspace;
  reads: ReadLedger;
}

/** One tool: a zod schema for its arguments (the JSON Schema the model sees comes from it), and its behaviour. */
export interface ToolDefinition<Args extends z.ZodType = z.ZodType> {
  name: string;
  /** For the model: what the tool does and when to use it. */
  description: string;
  args: Args;
  run(args: z.output<Args>, context: ToolContext): Promise<ToolResult>;
}

/** Keeps each tool's argument type while listing tools of different schemas together. */
export function defineTool<Args extends z.ZodType>(tool: ToolDefinition<Args>): ToolDefinition<Args> {
  return tool;
}

export const success = (output: string): ToolResult => ({ ok: true, output });
export const failure = (output: string): ToolResult => ({ ok: false, output });
