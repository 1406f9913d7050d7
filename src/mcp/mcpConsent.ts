import { createHash } from 'node:crypto';
import { isSecretName } from '../sandbox';
import type { McpServerConfig } from './mcpConfig';

// What the user says yes to before a workspace's MCP server starts (docs/tools.md, "MCP servers"): a
// repository's `.vscode/mcp.json` is a stranger's input, and a stdio server is a program run with the user's
// rights. The question shows what would run (`describeServer`); the yes is kept against a fingerprint of it
// (`serverFingerprint`), so that a changed command, argument, variable or folder is asked about again.
// Plain Node: the extension and the CLI ask alike.

/** An object's entries sorted by key: the same record written in another order prints the same. */
const sorted = <T>(record: Record<string, T>): [string, T][] =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * A digest of what `server` runs or reaches: command, args, env and cwd, or type, url and headers. Its name
 * is left out (the yes is kept under the name); header values are in it, yet only as part of the digest.
 */
export function serverFingerprint(server: McpServerConfig): string {
  const what =
    server.type === 'stdio'
      ? ['stdio', server.command, server.args, sorted(server.env), server.cwd]
      : [server.type, server.url, sorted(server.headers)];
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** `text` as a POSIX shell would need it written to be one word: as it is when nothing in it is special. */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * One line saying what starting `server` does: its exact command line, the folder it runs in and the
 * variables it sets (`sh -c 'touch x' (in /repo; env A=1, unset B)`), or where it connects and the names of
 * the headers it sends (their values are often the user's tokens, expanded from `${env:…}`: not echoed).
 * A secret of `env` the config expanded into it (a repository's `"X": "${env:OPENAI_API_KEY}"`) is shown by
 * its name, never its value, and named at the end: the yes must be to giving it away, knowingly.
 */
export function describeServer(server: McpServerConfig, env: NodeJS.ProcessEnv = process.env): string {
  const given = new Set<string>();
  const line = bySecretName(plainDescription(server), env, given);
  return given.size === 0 ? line : `${line}; it is given your ${[...given].join(', ')}`;
}

function plainDescription(server: McpServerConfig): string {
  if (server.type !== 'stdio') {
    const kind = server.type === 'sse' ? 'SSE' : 'HTTP';
    const headers = Object.keys(server.headers);
    return `connects over ${kind} to ${server.url}${headers.length ? ` (headers ${headers.join(', ')})` : ''}`;
  }
  const line = [server.command, ...server.args].map(shellWord).join(' ');
  const vars = sorted(server.env).map(([name, value]) =>
    value === null ? `unset ${name}` : `${name}=${shellWord(value)}`,
  );
  return `runs ${line} (in ${shellWord(server.cwd)}${vars.length ? `; env ${vars.join(', ')}` : ''})`;
}

/** A value too short to be told from ordinary text is not taken for a secret (`AUTH=1`). */
const SECRET_MIN_LENGTH = 8;

/** `text` with each secret value of `env` in it written as `${env:NAME}`, each name found added to `given`. */
function bySecretName(text: string, env: NodeJS.ProcessEnv, given: Set<string>): string {
  const secrets = Object.entries(env)
    .filter(
      (entry): entry is [string, string] => isSecretName(entry[0]) && (entry[1]?.length ?? 0) >= SECRET_MIN_LENGTH,
    )
    // The longest first: a key that holds another is replaced whole.
    .sort(([, a], [, b]) => b.length - a.length);
  let shown = text;
  for (const [name, value] of secrets) {
    if (!shown.includes(value)) continue;
    shown = shown.split(value).join(`\${env:${name}}`);
    given.add(name);
  }
  return shown;
}

/** "1 MCP server (docs)", "2 MCP servers (docs, web)": how many, and which. */
export function serverCount(servers: readonly McpServerConfig[]): string {
  const names = servers.map((server) => server.name).join(', ');
  return `${servers.length} MCP server${servers.length === 1 ? '' : 's'} (${names})`;
}
