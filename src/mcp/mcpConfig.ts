import * as path from 'node:path';
import { z } from 'zod';
import { readJsonc } from '../workspace/shared/jsonc';
import { expandVariables } from '../workspace/shared/vscodeVariables';

// The MCP servers a workspace names in `.vscode/mcp.json`, VS Code's own format (JSON with comments):
// `{"servers": {NAME: {"type": "stdio", "command", "args", "env", "cwd"} | {"type": "http", "url", "headers"}}}`.
// `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${env:NAME}` are
// expanded. Prompted `inputs` (`${input:…}`) are out of scope: a server that uses one, or any other variable
// Loopwire does not expand, is skipped and said so; the other servers still start.

/** A string, or in `env`, a number (written as its text) or null (the variable unset). */
const EnvValue = z.union([z.string(), z.number(), z.null()]);

const StdioServer = z.looseObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), EnvValue).default({}),
  cwd: z.string().optional(),
});

const HttpServer = z.looseObject({
  type: z.enum(['http', 'sse']),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).default({}),
});

/** The file: its `servers` (what else it holds, `inputs` included, is not read). */
export const McpJson = z.looseObject({ servers: z.record(z.string(), z.unknown()).default({}) });

/** One server as Loopwire starts it, every variable expanded. */
export type McpServerConfig =
  | {
      name: string;
      type: 'stdio';
      command: string;
      args: string[];
      /** Set on top of Loopwire's own environment; null unsets a variable. */
      env: Record<string, string | null>;
      /** Absolute; the workspace folder when the file gives none. */
      cwd: string;
    }
  | { name: string; type: 'http' | 'sse'; url: string; headers: Record<string, string> };

export interface McpConfig {
  servers: McpServerConfig[];
  /** One line per server left out, saying why (for the log). */
  skipped: string[];
}

/** A file that names no servers Loopwire can read at all: not JSONC, or not an object with `servers`. */
export class McpConfigError extends Error {
  readonly code = 'invalid_mcp_config';
}

export interface ConfigVariables {
  /** The folder `${workspaceFolder}` names (and where a relative `cwd` starts). */
  workspaceFolder: string;
  /** Where `${env:NAME}` reads (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
}

/** A variable Loopwire does not expand, found in a server's entry. */
class UnexpandedVariable extends Error {
  constructor(readonly variable: string) {
    super(variable);
  }
}

function expand(text: string, vars: ConfigVariables): string {
  return expandVariables(text, vars, (whole) => {
    throw new UnexpandedVariable(whole);
  });
}

const expandRecord = <T>(record: Record<string, T>, vars: ConfigVariables) =>
  Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, typeof value === 'string' ? expand(value, vars) : value]),
  );

/** Why an entry that is not a server is skipped. */
function invalidEntry(name: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
  return `MCP server '${name}' skipped: ${where}${issue?.message ?? 'not a server entry'} (a stdio server has a "command", an http one a "url")`;
}

/** `build()`, or why the server is skipped when it uses a variable Loopwire does not expand. */
function expanding(name: string, build: () => McpServerConfig): McpServerConfig | string {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof UnexpandedVariable)) throw error;
    const why = error.variable.startsWith('${input:')
      ? 'prompting for inputs is not supported; put the value in an environment variable and use ${env:NAME}'
      : 'Loopwire expands only ${workspaceFolder}, ${userHome}, ${pathSeparator} and ${env:NAME}';
    return `MCP server '${name}' skipped: it uses ${error.variable}, and ${why}`;
  }
}

/** One entry of `servers` as Loopwire starts it, or why it is skipped. */
export function serverConfig(name: string, raw: unknown, vars: ConfigVariables): McpServerConfig | string {
  if (typeof raw === 'object' && raw !== null && 'url' in raw && !('command' in raw)) {
    const parsed = HttpServer.safeParse(raw);
    if (!parsed.success) return invalidEntry(name, parsed.error);
    const { type, url, headers } = parsed.data;
    return expanding(name, () => ({ name, type, url: expand(url, vars), headers: expandRecord(headers, vars) }));
  }
  const parsed = StdioServer.safeParse(raw);
  if (!parsed.success) return invalidEntry(name, parsed.error);
  const entry = parsed.data;
  return expanding(name, () => ({
    name,
    type: 'stdio',
    command: expand(entry.command, vars),
    args: entry.args.map((arg) => expand(arg, vars)),
    env: Object.fromEntries(
      Object.entries(expandRecord(entry.env, vars)).map(([key, value]) => [
        key,
        typeof value === 'number' ? String(value) : value,
      ]),
    ),
    cwd: path.resolve(vars.workspaceFolder, entry.cwd === undefined ? '.' : expand(entry.cwd, vars)),
  }));
}

/** The servers of an mcp.json's parsed value. */
export function mcpConfigOf(value: unknown, vars: ConfigVariables, source: string): McpConfig {
  const file = McpJson.safeParse(value);
  if (!file.success) throw new McpConfigError(`${source}: not an MCP configuration (an object with "servers")`);
  const config: McpConfig = { servers: [], skipped: [] };
  for (const [name, raw] of Object.entries(file.data.servers)) {
    const server = serverConfig(name, raw, vars);
    if (typeof server === 'string') config.skipped.push(`${source}: ${server}`);
    else config.servers.push(server);
  }
  return config;
}

/**
 * The servers `file` names; undefined when there is no such file. A file that is not JSONC or has no
 * `servers` object is an error; a server that cannot be used is skipped, with a line in `skipped`.
 */
export async function readMcpConfig(file: string, vars: ConfigVariables): Promise<McpConfig | undefined> {
  const { value, problem } = await readJsonc(file);
  if (problem !== undefined) throw new McpConfigError(`${file}: not valid JSON with comments (${problem})`);
  if (value === undefined) return undefined;
  return mcpConfigOf(value, vars, file);
}

/** Where a workspace folder's MCP servers are named. */
export const workspaceMcpFile = (folder: string) => path.join(folder, '.vscode', 'mcp.json');
