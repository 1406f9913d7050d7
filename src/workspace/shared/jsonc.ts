import * as fs from 'node:fs/promises';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

// VS Code's configuration files (`tasks.json`, `mcp.json`) are JSON with comments and trailing commas, read
// with VS Code's own parser.

/**
 * A JSONC file's value; `{}` when the file does not exist (or cannot be read), `problem` when it is not
 * JSONC (the first error and where it is).
 */
export async function readJsonc(file: string): Promise<{ value?: unknown; problem?: string }> {
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    return { problem: `${printParseErrorCode(first.error)} at offset ${first.offset}` };
  }
  return { value };
}
