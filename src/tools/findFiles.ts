import { z } from 'zod';
import { summarizeArgument } from './callSummary';
import { maxResultsArgument } from './maxResults';
import { defineTool, success } from './tool';

export const FIND_DEFAULT_RESULTS = 200;
export const FIND_MAX_RESULTS = 2000;

export const FindFilesArgs = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'A glob in VS Code syntax: `**/*.ts`, `src/**/{a,b}.json`. Without a `/` it matches file names at any depth.',
    ),
  max_results: maxResultsArgument('paths', FIND_DEFAULT_RESULTS, FIND_MAX_RESULTS),
});

export const findFilesTool = defineTool({
  name: 'find_files',
  description:
    'Find files of the workspace by glob, sorted by path. Files ignored by .gitignore (and, in VS Code, ' +
    'files.exclude) are left out. Says "showing N of M" when there are more.',
  args: FindFilesArgs,
  effect: 'read',
  summarize: summarizeArgument('pattern'),
  async run(args, { workspace }) {
    const max = args.max_results ?? FIND_DEFAULT_RESULTS;
    const found = await workspace.findFiles(args.pattern, max);
    if (found.total === 0) return success(`No files match '${args.pattern}' (ignored files are not listed).`);
    const noun = found.total === 1 ? 'file' : 'files';
    const footer =
      found.files.length < found.total
        ? `(showing ${found.files.length} of ${found.total} files matching '${args.pattern}'; narrow the pattern${max < FIND_MAX_RESULTS ? ` or raise max_results (up to ${FIND_MAX_RESULTS})` : ''})`
        : `(${found.total} ${noun} matching '${args.pattern}')`;
    return success(`${found.files.join('\n')}\n${footer}`);
  },
});
