import { z } from 'zod';
import { MAX_MATCH_LINE } from '../workspace';
import { summarizeArgument } from './callSummary';
import { maxResultsArgument } from './maxResults';
import { defineTool, success } from './tool';

export const SEARCH_DEFAULT_RESULTS = 100;
export const SEARCH_MAX_RESULTS = 1000;

export const SearchTextArgs = z.object({
  query: z.string().min(1).describe('Text to find, or a regular expression with is_regex.'),
  is_regex: z.boolean().optional().describe('Treat query as a regular expression (default false: literal text).'),
  include: z.string().min(1).optional().describe('Only files whose path matches this glob (`**/*.ts`, `src/**`).'),
  case_sensitive: z.boolean().optional().describe('Match case exactly (default false).'),
  max_results: maxResultsArgument('matching lines', SEARCH_DEFAULT_RESULTS, SEARCH_MAX_RESULTS),
});

export const searchTextTool = defineTool({
  name: 'search_text',
  description:
    "Search the text of the workspace's files (ignored and binary files skipped). One line per match: " +
    '`path:line: text`, sorted by path and line, then the totals. Very long lines are cut around the match.',
  args: SearchTextArgs,
  effect: 'read',
  summarize: summarizeArgument('query'),
  async run(args, { workspace }) {
    const max = args.max_results ?? SEARCH_DEFAULT_RESULTS;
    const found = await workspace.searchText({
      query: args.query,
      isRegex: args.is_regex ?? false,
      caseSensitive: args.case_sensitive ?? false,
      maxResults: max,
      ...(args.include === undefined ? {} : { include: args.include }),
    });
    const where = args.include === undefined ? '' : ` in files matching '${args.include}'`;
    if (found.total === 0) return success(`No matches for ${describe(args.query, args.is_regex)}${where}.`);
    const lines = found.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
    const total = `${found.totalIsLowerBound ? 'more than ' : ''}${found.total}`;
    const files = `${found.files}${found.totalIsLowerBound ? '+' : ''} file${found.files === 1 ? '' : 's'}`;
    const clipped = found.matches.some((match) => match.text.length > MAX_MATCH_LINE)
      ? `; long lines cut to ${MAX_MATCH_LINE} characters`
      : '';
    const footer =
      found.matches.length < found.total
        ? `(showing ${found.matches.length} of ${total} matches in ${files}; narrow the query or use include${max < SEARCH_MAX_RESULTS ? `, or raise max_results (up to ${SEARCH_MAX_RESULTS})` : ''}${clipped})`
        : `(${total} match${found.total === 1 ? '' : 'es'} in ${files}${clipped})`;
    return success(`${lines.join('\n')}\n${footer}`);
  },
});

function describe(query: string, isRegex: boolean | undefined): string {
  return isRegex ? `/${query}/` : `'${query}'`;
}
