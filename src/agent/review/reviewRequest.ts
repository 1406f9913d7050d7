import { BUILTIN_TOOLS, type ToolRegistry, reviewToolNames } from '../../tools';
import { type ReviewChanges, gatherChanges } from './reviewChanges';
import { ReviewGitError, reviewGit } from './reviewGit';
import { reviewPrompt } from './reviewPrompt';
import { parseReviewTarget } from './reviewTarget';

// A review as a front end starts it (`/review ARGS` in exec or the panel, Loopwire: Review Changes): the
// changes gathered with git, the prompt that carries them, and the tools it may be offered. The approval
// mode is the front end's to force: read-only, always.

/** What a review sends: its prompt, the names of the tools it is offered, and the changes it carries. */
export interface ReviewRequest {
  prompt: string;
  tools: string[];
  changes: ReviewChanges;
}

/** The review `args` ask for in the repository at `root`, or a problem for the user (bad target, no repository). */
export async function prepareReview(
  root: string,
  args: string,
  registry: ToolRegistry = BUILTIN_TOOLS,
): Promise<ReviewRequest | { problem: string }> {
  const target = parseReviewTarget(args);
  if ('problem' in target) return target;
  try {
    const git = await reviewGit(root);
    const changes = await gatherChanges(git, root, target);
    return { prompt: reviewPrompt(changes), tools: reviewToolNames(registry), changes };
  } catch (error) {
    if (error instanceof ReviewGitError) return { problem: error.message };
    throw error;
  }
}
