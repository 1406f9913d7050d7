import { z } from 'zod';
import { type ToolDefinition, type ToolResult, argumentPaths, schemaPathArguments, schemaSummary } from '../../tools';

// The editor's tools — those other extensions and VS Code's MCP support register (`vscode.lm.tools`, in the
// VS Code releases that have the language-model tools API) — as the agent's: offered under their names,
// invoked with `vscode.lm.invokeTool`, always approved like a task (asked under `ask`, declined under
// `read-only`). Loopwire supports VS Code 1.90 (`engines.vscode`), whose `lm` has neither, so the API is
// found by feature detection through the narrow interface below; where it is missing, no editor tool is
// offered and nothing else changes. VS Code's own built-in tools (no `source`: its chat's terminal, todo
// list, confirmations…) are left out: they serve its chat, and Loopwire has its own. Plain Node (given
// `vscode.lm` as a value): tested without VS Code.

/** A tool as `vscode.lm.tools` describes it (`LanguageModelToolInformation`). */
export interface LmToolInformation {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object | undefined;
  readonly tags: readonly string[];
  /**
   * Who registered it (`{id, label}` of an extension, or an MCP server's); undefined: VS Code itself. Absent
   * where the API is older than `source` (then every tool came from an extension).
   */
  readonly source?: { readonly id?: string; readonly label?: string } | undefined;
  /** VS Code's own (a `source` field that is undefined): not offered. */
  readonly builtIn?: boolean;
}

/** What Loopwire uses of `vscode.lm` where the editor has tools. */
export interface LmToolsApi {
  readonly tools: readonly LmToolInformation[];
  invokeTool(
    name: string,
    options: { input: object; toolInvocationToken: undefined },
  ): PromiseLike<{ readonly content: readonly unknown[] }>;
}

/** `lm` (VS Code's `vscode.lm`) as the tools API, or undefined where this VS Code has none. */
export function lmToolsApi(lm: unknown): LmToolsApi | undefined {
  if (typeof lm !== 'object' || lm === null) return undefined;
  const tools: unknown = Reflect.get(lm, 'tools');
  const invokeTool: unknown = Reflect.get(lm, 'invokeTool');
  if (!Array.isArray(tools) || typeof invokeTool !== 'function') return undefined;
  const valid = tools.flatMap((tool: unknown): LmToolInformation[] => {
    if (typeof tool !== 'object' || tool === null) return [];
    const { name, description, inputSchema, tags, source } = tool as Partial<Record<keyof LmToolInformation, unknown>>;
    if (typeof name !== 'string') return [];
    const text = (key: string) => {
      const value: unknown = typeof source === 'object' && source !== null ? Reflect.get(source, key) : undefined;
      return typeof value === 'string' ? value : undefined;
    };
    return [
      {
        name,
        description: typeof description === 'string' ? description : '',
        inputSchema: typeof inputSchema === 'object' && inputSchema !== null ? inputSchema : undefined,
        tags: Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [],
        ...(typeof source === 'object' && source !== null ? { source: { id: text('id'), label: text('label') } } : {}),
        builtIn: 'source' in tool && source === undefined,
      },
    ];
  });
  const invoke = invokeTool as LmToolsApi['invokeTool'];
  return { tools: valid, invokeTool: (name, options) => invoke.call(lm, name, options) };
}

/** How long an editor tool may take before its call is answered as timed out. */
export const EDITOR_TOOL_TIMEOUT_MS = 120_000;
const OUTPUT_CHARS = 40_000;

const norm = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '_');

/**
 * Whether `tool` is VS Code's own MCP support serving a server Loopwire already started from mcp.json (by
 * name: an MCP tool — tagged `mcp`, named `mcp_…`, or from a source that says MCP — whose name or source
 * holds the server's): offering both would offer every tool of that server twice, under two names.
 */
export function duplicatesMcpServer(tool: LmToolInformation, servers: readonly string[]): boolean {
  const from = `${tool.source?.id ?? ''} ${tool.source?.label ?? ''}`;
  const isMcp = tool.tags.some((tag) => /^mcp\b/i.test(tag)) || /^mcp[_.-]/i.test(tool.name) || /mcp/i.test(from);
  if (!isMcp) return false;
  const names = `_${norm(tool.name)}_${norm(from)}_`;
  return servers.some((server) => names.includes(`_${norm(server)}_`));
}

/** One result part in words: a text part as it is, data described, anything else as JSON. */
function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return String(part);
  const value: unknown = Reflect.get(part, 'value');
  if (typeof value === 'string') return value;
  const mimeType: unknown = Reflect.get(part, 'mimeType');
  const data: unknown = Reflect.get(part, 'data');
  if (typeof mimeType === 'string' && data instanceof Uint8Array) {
    if (/^text\/|json/.test(mimeType)) return Buffer.from(data).toString('utf8');
    return `[${mimeType} data, ${data.byteLength} bytes; not shown]`;
  }
  try {
    return JSON.stringify(value ?? part) ?? '';
  } catch {
    return '[a result part Loopwire cannot show]';
  }
}

/** A tool's result as its output: the parts joined, cut past the cap. */
export function lmResultText(content: readonly unknown[]): string {
  const text = content.map(partText).join('\n');
  if (text.trim() === '') return '(no output)';
  return text.length > OUTPUT_CHARS
    ? `${text.slice(0, OUTPUT_CHARS)}\n… (${text.length - OUTPUT_CHARS} more characters cut: ask for less)`
    : text;
}

export interface EditorToolOptions {
  /** Names taken already (the built-in tools', the MCP servers'): such a tool is left out. */
  taken: ReadonlySet<string>;
  /** The servers Loopwire started from mcp.json: VS Code's tools for the same servers are left out. */
  mcpServers: readonly string[];
  log?: (line: string) => void;
  timeoutMs?: number;
}

/** The editor's tools as the agent's: every tool but Loopwire's own, duplicates and names a request cannot carry. */
export function editorToolDefinitions(api: LmToolsApi, options: EditorToolOptions): ToolDefinition[] {
  const taken = new Set(options.taken);
  const tools: ToolDefinition[] = [];
  for (const info of api.tools) {
    if (info.builtIn === true || /^loopwire/i.test(info.name) || info.source?.id?.startsWith('loopwire.')) continue;
    if (duplicatesMcpServer(info, options.mcpServers)) continue;
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(info.name) || taken.has(info.name)) {
      options.log?.(`The editor's tool ${info.name} is not offered: its name is taken or not one a model can call.`);
      continue;
    }
    taken.add(info.name);
    tools.push(editorTool(api, info, options.timeoutMs ?? EDITOR_TOOL_TIMEOUT_MS));
  }
  return tools;
}

/** An editor tool's arguments: any JSON object (the tool checks them against its own schema). */
const EditorArgs = z.record(z.string(), z.unknown(), { error: 'the arguments must be a JSON object' });

function editorTool(api: LmToolsApi, info: LmToolInformation, timeoutMs: number): ToolDefinition {
  const schema = (info.inputSchema ?? {}) as Record<string, unknown>;
  const { $schema: _ignored, ...parameters } = schema;
  return {
    name: info.name,
    description: info.description || `The editor's tool ${info.name}.`,
    args: EditorArgs,
    parameters: { properties: {}, ...parameters, type: 'object' },
    effect: 'task',
    summarize: schemaSummary(schema),
    paths: argumentPaths(...schemaPathArguments(schema)),
    async run(args): Promise<ToolResult> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
      try {
        // `args` passed EditorArgs (runToolCall checks them first): a JSON object.
        const input = args as Record<string, unknown>;
        const invoked = Promise.resolve(api.invokeTool(info.name, { input, toolInvocationToken: undefined }));
        const result = await Promise.race([invoked, timeout]);
        if (result === 'timeout')
          return { ok: false, output: `The editor's tool ${info.name} did not answer within ${timeoutMs / 1000} s.` };
        return { ok: true, output: lmResultText(result.content) };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, output: `The editor's tool ${info.name} failed: ${message}` };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
