import type { z } from 'zod';
import type { EditError } from '../edit';
import { isWorkspaceError } from '../workspace';
import { type ToolResult, failure } from './tool';

// Every refusal becomes a message a model can act on: what was wrong, and what to do instead.

/** Invalid arguments, naming each field (`edits.0.old_string: expected string`). */
export function invalidArguments(tool: string, error: z.ZodError): ToolResult {
  const issues = error.issues.map((issue) => {
    const field = issue.path.length === 0 ? '(arguments)' : issue.path.join('.');
    return `${field}: ${issue.message}`;
  });
  return failure(`Invalid arguments for ${tool}: ${issues.join('; ')}.`);
}

/** A WorkspaceError's message as is (they are written for the model); anything else as an internal failure. */
export function fromThrown(tool: string, error: unknown): ToolResult {
  if (isWorkspaceError(error)) return failure(error.message);
  const message = error instanceof Error ? error.message : String(error);
  return failure(`${tool} failed: ${message}`);
}

export function fromEditError(error: EditError): ToolResult {
  return failure(`${error.message}\nNothing was changed.`);
}
