import { z } from 'zod';
import { planReplacements } from '../edit';
import { argumentPaths } from './callPaths';
import { summarizeArgument } from './callSummary';
import { commitPlan } from './commitPlan';
import { readSnapshots } from './snapshots';
import { defineTool } from './tool';
import { fromEditError } from './toolErrors';

export const EditFileArgs = z.object({
  path: z.string().min(1).describe('Workspace-relative path of the file to edit.'),
  edits: z
    .array(
      z.object({
        old_string: z
          .string()
          .describe(
            'Text to replace, copied from the file (enough of it to be unique). Empty with a missing file: create it.',
          ),
        new_string: z.string().describe('The replacement.'),
        replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one.'),
      }),
    )
    .min(1)
    .describe('Applied in order, all together or not at all.'),
});

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a file by replacing text: each old_string must occur exactly once (or set replace_all). All edits ' +
    'of one call apply together or none does. Whitespace and typographic differences are tolerated where the ' +
    'match stays unique; the answer is the diff of what changed.',
  args: EditFileArgs,
  effect: 'write',
  requires: 'writes',
  editStyle: 'edit_file',
  liveDiff: 'replacements',
  outputShape: 'diff',
  summarize: summarizeArgument('path'),
  paths: argumentPaths('path'),
  async run(args, context) {
    const { current, planOn } = await readSnapshots(context.workspace, context.reads, [args.path]);
    const plan = planReplacements(args, planOn);
    if (!plan.ok) return fromEditError(plan.error);
    return commitPlan(plan.value, current, context);
  },
});
