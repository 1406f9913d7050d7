import type * as z from 'zod';
import { KNOWN_TYPE_IN_FALLBACK } from './openUnion';

// Decoding at the edge: text from a socket or an HTTP body becomes a typed value or an error that names
// the field, in the API's own words, so a bad frame is a clear answer rather than a crash three calls later.

/** Why a frame or body was refused. `param` is the field's path as the API writes it (`input[0].call_id`). */
export interface WireError {
  code: 'invalid_json' | 'invalid_value';
  message: string;
  param: string | null;
}

export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** Parses JSON text without throwing. */
export function decodeJson(text: string): WireResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        code: 'invalid_json',
        message: `We could not parse the JSON body of your request: ${reason}`,
        param: null,
      },
    };
  }
}

/** Validates `value` against `schema`; on failure, reports the most specific problem found. */
export function parseWire<S extends z.ZodType>(schema: S, value: unknown): WireResult<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: describeIssues(result.error.issues) };
}

/** `decodeJson` then `parseWire`. */
export function decodeWire<S extends z.ZodType>(schema: S, text: string): WireResult<z.output<S>> {
  const json = decodeJson(text);
  return json.ok ? parseWire(schema, json.value) : json;
}

/** A path as the API writes it: `input[0].content[1].text`. */
export function formatParam(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

type Issue = z.core.$ZodIssue;
interface Located {
  issue: Issue;
  path: PropertyKey[];
}

function describeIssues(issues: readonly Issue[]): WireError {
  const first = mostSpecific(issues, []);
  if (!first) return { code: 'invalid_value', message: 'Invalid request.', param: null };
  const param = first.path.length > 0 ? formatParam(first.path) : null;
  return { code: 'invalid_value', message: messageFor(first.issue, param), param };
}

/**
 * Inside a union, zod reports every branch's failure. The branch that got furthest into the value is the one
 * the sender meant (a `function_call` missing `call_id`, not "this is not a message"); failures on the `type`
 * field itself are the weakest evidence.
 */
function mostSpecific(issues: readonly Issue[], base: PropertyKey[]): Located | undefined {
  let best: Located | undefined;
  let bestScore = -1;
  for (const issue of issues) {
    const candidate = resolve(issue, base);
    const candidateScore = score(candidate);
    if (candidateScore > bestScore) {
      best = candidate;
      bestScore = candidateScore;
    }
  }
  return best;
}

function resolve(issue: Issue, base: PropertyKey[]): Located {
  const path = [...base, ...issue.path];
  const inBranches = issue.code === 'invalid_union' ? mostSpecific(issue.errors.flat(), path) : undefined;
  return inBranches ?? { issue, path };
}

function score({ issue, path }: Located): number {
  const onDiscriminator =
    path[path.length - 1] === 'type' &&
    (issue.code === 'invalid_value' || issue.code === 'invalid_union' || issue.message === KNOWN_TYPE_IN_FALLBACK);
  return onDiscriminator ? 0 : path.length + 1;
}

function messageFor(issue: Issue, param: string | null): string {
  const where = param === null ? 'the request' : `'${param}'`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined && param !== null) return `Missing required parameter: ${where}.`;
      return `Invalid type for ${where}: expected ${article(issue.expected)}, but got ${describe(issue.input)} instead.`;
    case 'invalid_value':
      return `Invalid value for ${where}: expected ${issue.values.map(quote).join(' or ')}, but got ${quote(issue.input)}.`;
    case 'invalid_union':
      if ('options' in issue && Array.isArray(issue.options)) {
        // A discriminator mismatch: zod reports the whole object as input; the value is its `type`.
        const options = (issue.options as unknown[]).filter((option) => option !== undefined).map(quote);
        const got = typeof issue.discriminator === 'string' ? field(issue.input, issue.discriminator) : issue.input;
        return `Invalid value for ${where}: expected one of ${options.join(', ')}, but got ${quote(got)}.`;
      }
      return `Invalid ${where}: it matches none of the accepted shapes.`;
    case 'unrecognized_keys': {
      // The API's words for a field it does not take, named by its full path.
      const key = String(issue.keys[0]);
      return `Unknown parameter: '${param === null ? key : `${param}.${key}`}'.`;
    }
    default:
      return `Invalid ${where}: ${issue.message}.`;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
  return article(typeof value);
}

function quote(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 60)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return describe(value);
}
