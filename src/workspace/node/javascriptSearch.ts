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

function pattern(query: TextQuery): RegExp {
  const source = query.isRegex ? query.query : query.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, query.caseSensitive ? 'u' : 'iu');
  } catch (error) {
    throw new WorkspaceError('invalid_query', `The search failed: ${(error as Error).message}`);
  }
}

export async function javascriptSearch(root: string, query: TextQuery): Promise<TextMatches> {
  const regex = pattern(query);
  const include = query.include === undefined ? undefined : globMatcher(query.include);
  const matches: TextMatch[] = [];
  const files = new Set<string>();
  let stopped = false;
  const { files: candidates } = await listFiles(root);
  for (const rel of candidates) {
    if (include && !include(rel)) continue;
    const bytes = await readSearchable(path.join(root, rel));
    if (!bytes) continue;
    const lines = lenient.decode(bytes).split('\n');
    for (const [index, line] of lines.entries()) {
      const found = regex.exec(line);
      if (!found) continue;
      matches.push({ path: rel, line: index + 1, text: clipLine(line, found.index) });
      files.add(rel);
      if (matches.length >= SEARCH_COUNT_LIMIT) {
        stopped = true;
        break;
      }
    }
    if (stopped) break;
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

async function readSearchable(file: string): Promise<Buffer | undefined> {
  const stat = await fs.stat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
  const bytes = await fs.readFile(file).catch(() => undefined);
  if (!bytes || bytes.subarray(0, 8192).includes(0)) return undefined;
  return bytes;
}
