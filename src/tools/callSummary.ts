// What a tool call asks for, in one short line — its path, pattern, query or label — for people watching the
// loop (the CLI's line per call, the chat panel's card title). Each tool says how (`summarize`); these are
// the pieces they share. All of them work on input still being written.

/** The arguments whose value says what a call is about, in order of preference. */
const MAIN_ARGUMENTS = ['path', 'pattern', 'query', 'label'];

/** The whole JSON arguments as an object; undefined while they are still streaming (or are not JSON). */
function parseObject(input: string): { complete: true; args: Record<string, unknown> } | { complete: false } {
  try {
    const args = JSON.parse(input) as unknown;
    return { complete: true, args: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {} };
  } catch {
    return { complete: false };
  }
}

/** The whole JSON arguments as an object; empty while they are still streaming (or are not a JSON object). */
export function jsonArguments(input: string): Record<string, unknown> {
  const parsed = parseObject(input);
  return parsed.complete ? parsed.args : {};
}

/** A JSON string's body (between the quotes) decoded; a body cut inside an escape is decoded up to it. */
function decodeBody(body: string): string {
  for (const text of [body, body.replace(/\\u[0-9a-fA-F]{0,3}$/, '')]) {
    try {
      return JSON.parse(`"${text}"`) as string;
    } catch {
      // Cut inside an escape, or not JSON at all: the next try, or the text as it is.
    }
  }
  return body;
}

/** The string `key` has in streaming JSON arguments: a closed string's value, or with `open` what has come of one. */
function streamingString(input: string, key: string, open: boolean): string | undefined {
  const match = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)(")?`).exec(input);
  if (match?.[1] === undefined || (match[2] === undefined && !open)) return undefined;
  return decodeBody(match[1]);
}

/**
 * The string argument `key` of JSON arguments (undefined when absent or not a string). While they are still
 * streaming: the value once its string is closed, or with `open: true` as much of it as has come.
 */
export function stringArgument(input: string, key: string, options: { open?: boolean } = {}): string | undefined {
  const parsed = parseObject(input);
  if (!parsed.complete) return streamingString(input, key, options.open ?? false);
  const value = parsed.args[key];
  return typeof value === 'string' ? value : undefined;
}

/** The shared summary: the first of path, pattern, query and label that is a string (closed, while streaming). */
export function mainArgument(input: string): string {
  const parsed = parseObject(input);
  for (const key of MAIN_ARGUMENTS) {
    const value = parsed.complete ? parsed.args[key] : streamingString(input, key, false);
    if (typeof value === 'string') return value;
  }
  return '';
}

/** A tool's `summarize` that shows one string argument (empty until it has come). */
export function summarizeArgument(key: string): (input: string) => string {
  return (input) => stringArgument(input, key) ?? '';
}
