import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type ToolDefinition, type ToolResult, argumentPaths, schemaPathArguments, schemaSummary } from '../tools';
import { type McpCallResult, type McpConnection, McpServerError, type McpToolInfo } from './mcpConnection';
import { toolRefusalNote } from './mcpStdio';

// An MCP server's tool as one of the agent's: named `mcp__SERVER__TOOL` (a contract), offered with the JSON
// Schema its server gave, a `read` when the server says it only reads (`readOnlyHint`) and a `task` — asked
// before it runs — otherwise, its answer's content turned into text for the model; the arguments that name
// paths (by name or description) are the paths its card links.

/** The names a request may give a tool. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** What of a result the model gets: the rest is cut, and it is told so. */
export const MCP_OUTPUT_CHARS = 40_000;

const clean = (part: string) => part.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';

/**
 * The name the model calls a server's tool by: `mcp__SERVER__TOOL`, every character a request does not allow
 * in a name made `_`, and a name past 64 characters cut with a short hash of the whole so it stays apart.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${clean(server)}__${clean(tool)}`;
  if (name.length <= 64) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, 64 - hash.length - 1)}_${hash}`;
}

/** `name`, or with `_2`, `_3`… (within 64 characters) when `taken` has it already. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const candidate = `${name.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export const isToolName = (name: string) => TOOL_NAME.test(name);

/** A card's or terminal line's summary of a call: `SERVER · TOOL`, and its main argument when one is obvious. */
export function mcpSummary(server: string, tool: string, schema: Record<string, unknown>) {
  const summarize = schemaSummary(schema);
  return (input: string): string => {
    const main = summarize(input);
    return main === '' ? `${server} · ${tool}` : `${server} · ${tool}: ${main}`;
  };
}

const size = (base64: string) => {
  const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
};

/** One content part in words: text as it is, anything else described. */
function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return `[a content part Loopwire does not know: ${String(part)}]`;
  const p = part as Record<string, unknown>;
  const str = (key: string) => (typeof p[key] === 'string' ? p[key] : undefined);
  switch (p['type']) {
    case 'text':
      return str('text') ?? '';
    case 'image':
    case 'audio':
      return `[${String(p['type'])}: ${str('mimeType') ?? 'unknown type'}, ${size(str('data') ?? '')}; not shown]`;
    case 'resource_link':
      return `[resource link: ${str('name') ?? ''} ${str('uri') ?? ''}${str('description') ? ` — ${str('description')}` : ''}]`;
    case 'resource': {
      const resource = (p['resource'] ?? {}) as Record<string, unknown>;
      const uri = typeof resource['uri'] === 'string' ? resource['uri'] : 'a resource';
      if (typeof resource['text'] === 'string') return `--- ${uri} ---\n${resource['text']}`;
      const blob = typeof resource['blob'] === 'string' ? resource['blob'] : '';
      const mime = typeof resource['mimeType'] === 'string' ? resource['mimeType'] : 'binary';
      return `[resource ${uri}: ${mime}, ${size(blob)}; not shown]`;
    }
    default:
      return `[a content part of type '${String(p['type'])}', not shown]`;
  }
}

/** A call's result as the tool's output: the text parts joined, other parts described, cut past the cap. */
export function resultText(result: McpCallResult): string {
  let text = result.content.map(partText).join('\n');
  if (text.trim() === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (text.trim() === '') text = result.isError ? 'The tool failed and said nothing more.' : '(no output)';
  if (text.length > MCP_OUTPUT_CHARS)
    text = `${text.slice(0, MCP_OUTPUT_CHARS)}\n… (${text.length - MCP_OUTPUT_CHARS} more characters cut: ask for less)`;
  return text;
}

/** Arguments of an MCP tool: any JSON object (its server checks them against its own schema). */
const McpArgs = z.record(z.string(), z.unknown(), { error: 'the arguments must be a JSON object' });

/** `tool` of `connection`'s server as the agent's tool, named `name` (see {@link mcpToolName}). */
export function mcpToolDefinition(name: string, connection: McpConnection, tool: McpToolInfo): ToolDefinition {
  const server = connection.name;
  const { $schema: _ignored, ...parameters } = tool.inputSchema;
  return {
    name,
    description: tool.description ?? tool.title ?? `The tool ${tool.name} of the MCP server '${server}'.`,
    args: McpArgs,
    parameters: { ...parameters, type: 'object' },
    effect: tool.readOnly ? 'read' : 'task',
    summarize: mcpSummary(server, tool.name, tool.inputSchema),
    paths: argumentPaths(...schemaPathArguments(tool.inputSchema)),
    async run(args): Promise<ToolResult> {
      try {
        const result = await connection.call(tool.name, args as Record<string, unknown>);
        const output = resultText(result);
        const note = result.isError && connection.sandboxed ? toolRefusalNote(server, output) : undefined;
        return { ok: !result.isError, output: note === undefined ? output : `${output}\n${note}` };
      } catch (error) {
        if (error instanceof McpServerError) return { ok: false, output: error.message };
        throw error;
      }
    },
  };
}
