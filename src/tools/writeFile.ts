import { t } from '@vscode/l10n';
import { z } from 'zod';
import { planWrite } from '../edit';
import { argumentPaths } from './callPaths';
import { summarizeArgument } from './callSummary';
import { commitPlan } from './commitPlan';
import { defineTool } from './tool';
import { refusal } from './toolErrors';

export const WriteFileArgs = z.object({
  path: z.string().min(1).describe('Workspace-relative path of the file to write.'),
  content: z.string().describe('The whole text of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create a file with the given text (folders are created as needed). Overwriting an existing file is ' +
    'allowed only after reading it in this session, and only if it has not changed since; prefer edit_file ' +
    'for changes to existing files.',
  args: WriteFileArgs,
  effect: 'write',
  requires: 'writes',
  editStyle: 'edit_file',
  outputShape: 'diff',
  summarize: summarizeArgument('path'),
  paths: argumentPaths('path'),
  async run(args, context) {
    const existing = await context.workspace.tryReadFile(args.path);
    if (existing && !context.reads.isCurrent(existing)) {
      const changed = context.reads.stamp(existing.path) !== undefined;
      const why = changed ? 'it changed since you last read it' : 'you have not read it in this session';
      return refusal(
        `${existing.path} already exists and ${why}; read_file it first (or use edit_file). Nothing was written.`,
        () =>
          changed
            ? t('{0} already exists and changed since the model read it; nothing was written.', existing.path)
            : t('{0} already exists and the model has not read it; nothing was written.', existing.path),
      );
    }
    const current = new Map(existing ? [[args.path, existing]] : []);
    return commitPlan(planWrite(args.path, args.content, existing), current, context);
  },
});
