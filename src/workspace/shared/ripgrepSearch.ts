import { spawn } from 'node:child_process';
import { globMatcher } from '../glob';
import { SEARCH_COUNT_LIMIT, byPathThenLine, clipLine } from '../searchLine';
import type { TextMatch, TextMatches, TextQuery } from '../workspace';
import { WorkspaceError } from '../workspaceError';

// Text search with ripgrep (`rg --json`): the binary VS Code ships, or `rg` on PATH. Output lines are split
// on the newline byte before decoding, so a multi-byte character cut by a chunk boundary is never garbled;
// non-UTF-8 lines come base64-encoded and are decoded with replacement characters.

type RgText = { text: string } | { bytes: string };

interface RgMatch {
  type: 'match';
  data: {
    path: RgText;
    lines: RgText;
    line_number: number;
    submatches: { match: RgText; start: number }[];
  };
}

const lenient = new TextDecoder('utf-8', { fatal: false });

function decode(value: RgText): string {
  return 'text' in value ? value.text : lenient.decode(Buffer.from(value.bytes, 'base64'));
}

/** Runs `rg` under `root`; rejects with `invalid_query` when ripgrep refuses the pattern. */
export function ripgrepSearch(rg: string, root: string, query: TextQuery): Promise<TextMatches> {
  const include = query.include === undefined ? undefined : globMatcher(query.include);
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ripgrepArgs(query), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const matches: TextMatch[] = [];
    const files = new Set<string>();
    let stderr = '';
    let stopped = false;
    const take = (line: Buffer) => {
      const match = stopped ? undefined : matchOf(line);
      if (match === undefined || (include && !include(match.path))) return;
      matches.push(match);
      files.add(match.path);
      if (matches.length >= SEARCH_COUNT_LIMIT) {
        stopped = true;
        child.kill();
      }
    };
    const flush = eachLine(child.stdout, take);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', (error) => reject(new WorkspaceError('io_error', `ripgrep could not run: ${error.message}`)));
    child.on('close', (code) => {
      flush();
      // 0: matches, 1: none, 2: an error (a bad pattern, or unreadable files alongside results).
      if (code === 2 && matches.length === 0 && !stopped) {
        const reason = stderr.trim().split('\n').slice(-3).join(' ');
        reject(new WorkspaceError('invalid_query', `The search failed: ${reason || 'ripgrep exited with status 2'}`));
        return;
      }
      matches.sort(byPathThenLine);
      resolve({
        matches: matches.slice(0, query.maxResults),
        total: matches.length,
        totalIsLowerBound: stopped,
        files: files.size,
        engine: 'ripgrep',
      });
    });
  });
}

/** rg's arguments for `query`: JSON out, and the same files the JavaScript search reads, whatever the user's setup. */
function ripgrepArgs(query: TextQuery): string[] {
  return [
    '--json',
    '--no-config',
    '--hidden',
    '--no-require-git',
    // The JavaScript search reads .gitignore files only: the same rules here, whatever the user's rg setup.
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-parent',
    '--max-filesize',
    '32M',
    '--glob',
    '!.git',
    query.caseSensitive ? '--case-sensitive' : '--ignore-case',
    ...(query.isRegex ? [] : ['--fixed-strings']),
    '--regexp',
    query.query,
    '--',
    '.',
  ];
}

/** One line of rg's JSON: a match, or undefined for its other events (begin, end, context, summary). */
function matchOf(line: Buffer): TextMatch | undefined {
  if (line.length === 0) return undefined;
  const event = JSON.parse(line.toString('utf8')) as { type: string };
  if (event.type !== 'match') return undefined;
  const { data } = event as RgMatch;
  const path = decode(data.path).replace(/^\.\//, '');
  const text = decode(data.lines).replace(/\n$/, '');
  const first = data.submatches[0];
  const at = first ? text.indexOf(decode(first.match)) : 0;
  return { path, line: data.line_number, text: clipLine(text, Math.max(0, at)) };
}

/** Calls `take` with each newline-ended line `stream` writes; the returned flush takes what is left at its end. */
function eachLine(stream: NodeJS.ReadableStream, take: (line: Buffer) => void): () => void {
  let pending: Buffer = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let newline: number;
    while ((newline = pending.indexOf(0x0a)) >= 0) {
      take(pending.subarray(0, newline));
      pending = pending.subarray(newline + 1);
    }
  });
  return () => take(pending);
}
