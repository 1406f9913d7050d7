import { createHash } from 'node:crypto';
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
 */
export function describeServer(server: McpServerConfig): string {
  if (server.type !== 'stdio') {
    const kind = server.type === 'sse' ? 'SSE' : 'HTTP';
    const headers = Object.keys(server.headers);
    return `connects over ${kind} to ${server.url}${headers.length ? ` (headers ${headers.join(', ')})` : ''}`;
  }
  const line = [server.command, ...server.args].map(shellWord).join(' ');
  const env = sorted(server.env).map(([name, value]) =>
    value === null ? `unset ${name}` : `${name}=${shellWord(value)}`,
  );
  return `runs ${line} (in ${shellWord(server.cwd)}${env.length ? `; env ${env.join(', ')}` : ''})`;
}

/** "1 MCP server (docs)", "2 MCP servers (docs, web)": how many, and which. */
export function serverCount(servers: readonly McpServerConfig[]): string {
  const names = servers.map((server) => server.name).join(', ');
  return `${servers.length} MCP server${servers.length === 1 ? '' : 's'} (${names})`;
}
