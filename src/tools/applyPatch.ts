import { z } from 'zod';
import { parsePatch, planPatch } from '../edit';
import { stringArgument } from './callSummary';
import { commitPlan } from './commitPlan';
import { readSnapshots } from './snapshots';
import { defineTool } from './tool';
import { fromEditError } from './toolErrors';

export const ApplyPatchArgs = z.object({
  input: z.string().min(1).describe('The whole patch, from *** Begin Patch to *** End Patch.'),
});

export const APPLY_PATCH_DESCRIPTION =
  'Edit files with a patch: `*** Begin Patch`, then sections `*** Add File: PATH` (lines prefixed +), ' +
  '`*** Delete File: PATH`, `*** Update File: PATH` (optionally `*** Move to: PATH`) with chunks that start ' +
  'with `@@` (optionally followed by a line to seek, e.g. a function signature) and lines prefixed by a space ' +
  '(context), - (remove) or + (add); `*** End of File` anchors a chunk at the end; then `*** End Patch`. ' +
  'Paths are workspace-relative. The whole patch applies or nothing does; the answer is the diff.';

/** The Lark grammar a freeform apply_patch is constrained by (Codex's, which GPT models are trained on). */
export const APPLY_PATCH_GRAMMAR = String.raw`start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

/**
 * The file lines of a patch (`*** Update File: PATH`, `*** Move to: PATH`…), from the patch text or from a
 * function call's `{"input": …}` arguments (a JSON string in them, so its lines are escaped) — either possibly
 * still streaming.
 */
function fileLines(input: string): { header: string; path: string }[] {
  const patch = input.trimStart().startsWith('{') ? (stringArgument(input, 'input', { open: true }) ?? '') : input;
  return [...patch.matchAll(/^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/gm)].map((match) => ({
    header: match[1] ?? '',
    path: (match[2] ?? '').trim(),
  }));
}

/** The paths a patch touches, a move's destination after its source. */
export const patchPaths = (input: string): string[] => fileLines(input).map((line) => line.path);

/** A card's or terminal line's summary: the files the patch adds, deletes or updates. */
const patchSummary = (input: string): string =>
  fileLines(input)
    .flatMap((line) => (line.header === 'Move to' ? [] : [line.path]))
    .join(', ');

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  description: APPLY_PATCH_DESCRIPTION,
  args: ApplyPatchArgs,
  effect: 'write',
  requires: 'writes',
  editStyle: 'apply_patch',
  freeform: { grammar: APPLY_PATCH_GRAMMAR, recognizes: (text) => text.trimStart().startsWith('***') },
  liveDiff: 'patch',
  outputShape: 'diff',
  summarize: patchSummary,
  paths: patchPaths,
  async run(args, context) {
    const parsed = parsePatch(args.input);
    if (!parsed.ok) return fromEditError(parsed.error);
    const paths = parsed.value.ops.flatMap((op) =>
      op.kind === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path],
    );
    const { current, planOn } = await readSnapshots(context.workspace, context.reads, paths);
    const plan = planPatch(parsed.value, planOn);
    if (!plan.ok) return fromEditError(plan.error);
    return commitPlan(plan.value, current, context);
  },
});
