import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { globMatcher } from '../glob';
import { SEARCH_COUNT_LIMIT, byPathThenLine, clipLine } from '../searchLine';
import type { TextMatch, TextMatches, TextQuery } from '../workspace';
import { WorkspaceError } from '../workspaceError';
import { listFiles } from './gitignoreFilter';

// The search used where no ripgrep exists: the same files (.gitignore honoured, .git skipped), the same
// binary rule (a NUL byte in the first 8 KB) and the same output as ripgrepSearch.

/** Files larger than this are skipped: no one greps a 32 MB log for a symbol. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const lenient = new TextDecoder('utf-8', { fatal: false });

/** The query as the regular expression both the JavaScript search and the editor's buffers are searched with. */
export function searchPattern(query: TextQuery): RegExp {
  const source = query.isRegex ? query.query : query.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, query.caseSensitive ? 'u' : 'iu');
  } catch (error) {
    throw new WorkspaceError('invalid_query', `The search failed: ${(error as Error).message}`);
  }
}

export async function javascriptSearch(root: string, query: TextQuery): Promise<TextMatches> {
  const regex = searchPattern(query);
  const include = query.include === undefined ? undefined : globMatcher(query.include);
  const matches: TextMatch[] = [];
  const files = new Set<string>();
  let stopped = false;
  const { files: candidates } = await listFiles(root);
  for (const rel of candidates) {
    if (include && !include(rel)) continue;
    const bytes = await readSearchable(path.join(root, rel));
    if (!bytes) continue;
    const found = matchLines(rel, lenient.decode(bytes), regex, SEARCH_COUNT_LIMIT - matches.length);
    if (found.length > 0) files.add(rel);
    for (const match of found) matches.push(match);
    if (matches.length >= SEARCH_COUNT_LIMIT) {
      stopped = true;
      break;
    }
  }
  matches.sort(byPathThenLine);
  return {
    matches: matches.slice(0, query.maxResults),
    total: matches.length,
    totalIsLowerBound: stopped,
    files: files.size,
    engine: 'javascript',
  };
}

/** The lines of `text` (the file `rel`) that `regex` matches, at most `limit`. */
export function matchLines(rel: string, text: string, regex: RegExp, limit: number): TextMatch[] {
  const matches: TextMatch[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (matches.length >= limit) break;
    const found = regex.exec(line);
    if (found) matches.push({ path: rel, line: index + 1, text: clipLine(line, found.index) });
  }
  return matches;
}

async function readSearchable(file: string): Promise<Buffer | undefined> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
  const bytes = await fs.readFile(file).catch(() => undefined);
  if (!bytes || bytes.subarray(0, 8192).includes(0)) return undefined;
  return bytes;
}
