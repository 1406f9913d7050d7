import * as z from 'zod';

// What a review looks at, from what follows `/review`: nothing, the working tree against HEAD (staged,
// unstaged and untracked alike); `A..B` or `A...B`, a range of commits (the three-dot form from the two ends'
// merge-base); `--base REF`, the branch checked out against where it left REF (its merge-base), uncommitted
// changes included; `branch`, the same against the repository's default branch; one commit's name, that commit.

export const ReviewTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('working') }),
  z.object({ kind: z.literal('range'), from: z.string().min(1), to: z.string().min(1), mergeBase: z.boolean() }),
  z.object({ kind: z.literal('base'), base: z.string().min(1).optional() }),
  z.object({ kind: z.literal('commit'), commit: z.string().min(1) }),
]);
export type ReviewTarget = z.infer<typeof ReviewTarget>;

/** The forms `/review` takes, for an error that names them. */
export const REVIEW_FORMS =
  '/review (the working tree against HEAD), /review A..B (a range), /review --base REF or /review branch (this branch against its merge-base), /review COMMIT';

/** The target `args` name, or why they name none. */
export function parseReviewTarget(args: string): ReviewTarget | { problem: string } {
  const words = args
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const [first, second] = words;
  if (first === undefined) return { kind: 'working' };
  if (first === '--base' || first.startsWith('--base=')) {
    const base = first === '--base' ? second : first.slice('--base='.length);
    if (base === undefined || base === '') return { problem: `--base needs a branch or commit: ${REVIEW_FORMS}` };
    return words.length > (first === '--base' ? 2 : 1) ? extra(words) : refOr({ kind: 'base', base }, base);
  }
  if (words.length > 1) return extra(words);
  if (first === 'branch') return { kind: 'base' };
  const range = /^(.+?)(\.\.\.?)(.+)$/.exec(first);
  if (range) {
    const [, from = '', dots, to = ''] = range;
    const target = { kind: 'range' as const, from, to, mergeBase: dots === '...' };
    return isRef(from) && isRef(to) ? target : { problem: badRef(first) };
  }
  return refOr({ kind: 'commit', commit: first }, first);
}

/** Whether `ref` is spelt as a ref can be, and cannot be read as an option. */
const isRef = (ref: string) => /^[\w./@^~{}-]+$/.test(ref) && !ref.startsWith('-');

/** `target`, unless `ref` could be read as an option or is no ref's spelling. */
function refOr<T extends ReviewTarget>(target: T, ref: string): T | { problem: string } {
  return isRef(ref) ? target : { problem: badRef(ref) };
}

const badRef = (ref: string) => `'${ref}' is not a branch, commit or range: ${REVIEW_FORMS}`;
const extra = (words: readonly string[]) => ({
  problem: `/review ${words.join(' ')}: one target at most: ${REVIEW_FORMS}`,
});

/** How the target reads in a heading: what is under review. */
export function targetTitle(target: ReviewTarget): string {
  switch (target.kind) {
    case 'working':
      return 'the working tree against HEAD (staged, unstaged and untracked changes)';
    case 'range':
      return `the commits ${target.from}${target.mergeBase ? '...' : '..'}${target.to}`;
    case 'base':
      return `this branch against ${target.base ?? 'the default branch'} (from their merge-base, uncommitted changes included)`;
    case 'commit':
      return `the commit ${target.commit}`;
  }
}
