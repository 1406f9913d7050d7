import * as z from 'zod';

// The worktree card of the chat panel (issue 49, item 3; docs/worktrees.md): a worktree Loopwire made, its
// changes against its base with each file's +/- counts, and what the user can do with it (Apply to workspace,
// Open in New Window, Discard). The host names worktrees from its own records; the page names them back only
// as a key into those records (a name the host does not know, or a path not among its changes, does nothing).

/** One file the worktree changed against its base. */
export const WorktreeFile = z.object({
  /** Relative to the repository's top, `/`-separated, as git names it. */
  path: z.string().max(4096),
  change: z.enum(['added', 'modified', 'deleted']),
  added: z.int().nonnegative(),
  removed: z.int().nonnegative(),
  /** A binary file: git counts no lines in it. */
  binary: z.boolean(),
});

/** The most files a card lists; `more` says how many it left out. */
export const WORKTREE_CARD_FILES = 200;

export const WorktreeCard = z.object({
  name: z.string().max(200),
  branch: z.string().max(300),
  /** This window's folder is that worktree (its chat runs there). */
  here: z.boolean(),
  /** Its folder has gone (removed by hand): nothing to show or apply; Discard forgets it. */
  gone: z.boolean(),
  files: z.array(WorktreeFile).max(WORKTREE_CARD_FILES),
  /** Changed files beyond those listed. */
  more: z.int().nonnegative(),
  /** Changes that have not reached the workspace through Apply. */
  unapplied: z.boolean(),
  /** Files git calls modified or untracked in the worktree. */
  uncommitted: z.int().nonnegative(),
  /** Its changes could not be read (git failed): said in the card instead of its files. */
  problem: z.string().max(2000).optional(),
});

/** The host's message: the worktrees this window's panel shows (none: no card). */
export const WorktreesMessage = z.object({
  type: z.literal('worktrees'),
  worktrees: z.array(WorktreeCard).max(100),
  /** The worktree an action is running on (its buttons wait), if any. */
  busy: z.string().max(200).optional(),
});

/** The page's: a card's button, or a file of it clicked (`diff`: VS Code's diff editor, base against now). */
export const WorktreeAction = z.object({
  type: z.literal('worktree'),
  action: z.enum(['apply', 'open', 'discard', 'diff']),
  name: z.string().min(1).max(200),
  path: z.string().min(1).max(4096).optional(),
});

/** The page wants the worktree cards, now and after each change (each task's end, each action). */
export const WatchWorktrees = z.object({ type: z.literal('watchWorktrees') });

/**
 * The composer's "in a new worktree" toggle was on when the prompt was sent: New Chat in Worktree's flow (a
 * name, whether to carry the uncommitted changes), and the prompt is the new window's first task.
 */
export const SendInWorktree = z.object({ type: z.literal('sendInWorktree'), text: z.string().min(1).max(100_000) });

export type WorktreeFile = z.infer<typeof WorktreeFile>;
export type WorktreeCard = z.infer<typeof WorktreeCard>;
export type WorktreeAction = z.infer<typeof WorktreeAction>;
