import type { z } from 'zod';
import type { EditError } from '../edit';
import { isWorkspaceError } from '../workspace';
import {
  editErrorDisplay,
  invalidArgumentsDisplay,
  toolFailedDisplay,
  translating,
  workspaceErrorDisplay,
} from './errorDisplay';
import type { ToolResult } from './tool';

// Every refusal becomes a message a model can act on: what was wrong, and what to do instead. Each also
// carries a copy in the person's language for the card and the terminal (errorDisplay.ts); the model's
// `output` stays English whatever the language.

/** A failure whose `output` is the model's and whose `shown` (if any) is the person's. */
function refused(output: string, shown: string | undefined): ToolResult {
  return shown === undefined ? { ok: false, output } : { ok: false, output, shown };
}

/** A refusal in the model's words (`output`), and in the person's where a language other than English is in force. */
export function refusal(output: string, shown: () => string): ToolResult {
  return refused(output, translating() ? shown() : undefined);
}

/** Invalid arguments, naming each field (`edits.0.old_string: expected string`). */
export function invalidArguments(tool: string, error: z.ZodError): ToolResult {
  const fields = error.issues.map((issue) => issue.path.join('.'));
  const issues = error.issues.map((issue, index) => {
    const field = issue.path.length === 0 ? '(arguments)' : fields[index];
    return `${field}: ${issue.message}`;
  });
  return refused(`Invalid arguments for ${tool}: ${issues.join('; ')}.`, invalidArgumentsDisplay(tool, fields));
}

/** A WorkspaceError's message as is (they are written for the model); anything else as an internal failure. */
export function fromThrown(tool: string, error: unknown): ToolResult {
  if (isWorkspaceError(error)) return refused(error.message, workspaceErrorDisplay(error));
  const message = error instanceof Error ? error.message : String(error);
  return refused(`${tool} failed: ${message}`, toolFailedDisplay(tool, message));
}

export function fromEditError(error: EditError): ToolResult {
  return refused(`${error.message}\nNothing was changed.`, editErrorDisplay(error));
}
