import { type ApprovalMode, isApprovalMode } from './approvals';

// Which approval mode is in force in a window, from where each value may come. A repository's
// .vscode/settings.json (or its .code-workspace file) is a stranger's input: it may make the mode stricter,
// never looser, unless the user said yes to its value for this workspace. The user's own values are the
// composer's choice (kept in the workspace's state, where no repository writes) and their user settings.
// Free of `vscode`, so that the table of cases is a unit test; the extension's side is approvalChoice.ts.

/**
 * How much each mode lets run unasked: a higher rank is stricter. `read-only` and `plan` both decline; `auto`
 * runs without asking what stays in the sandbox, so it is looser than `ask`.
 */
const STRICTNESS: Record<ApprovalMode, number> = { all: 0, auto: 1, ask: 2, 'read-only': 3, plan: 3 };

/** Whether `a` lets less run unasked than `b`. */
export const stricter = (a: ApprovalMode, b: ApprovalMode): boolean => STRICTNESS[a] > STRICTNESS[b];

export interface ApprovalSources {
  /** The composer's choice for this workspace (the workspace's state); anything else: none. */
  chosen?: unknown;
  /** The user's own `loopwire.approval` (`inspect().globalValue`). */
  user?: unknown;
  /** The workspace's value (`inspect().workspaceValue`): the repository's settings or .code-workspace file. */
  workspace?: unknown;
  /** A folder's value (`inspect().workspaceFolderValue`): the repository's too. */
  folder?: unknown;
  /** A looser workspace value the user allowed for this workspace (kept in its state), keyed on the value. */
  allowed?: unknown;
  /**
   * The mode where no one chose one: `auto` where this machine's OS sandbox works, `ask` where it does not
   * (the extension asks src/sandbox). Anything else, or absent: `ask`.
   */
  fallback?: unknown;
}

/** Where the mode in force comes from: the composer, the user's settings, the default, or the workspace's. */
export type ApprovalSource = 'chosen' | 'user' | 'default' | 'workspace';

export interface ResolvedApproval {
  mode: ApprovalMode;
  source: ApprovalSource;
  /** The workspace's value, looser than the user's and not allowed: not followed, and the user is told. */
  ignored?: ApprovalMode;
}

/** The strictest valid value of `values`; undefined where none is an approval mode. */
function strictest(values: readonly unknown[]): ApprovalMode | undefined {
  let found: ApprovalMode | undefined;
  for (const value of values)
    if (isApprovalMode(value) && (found === undefined || stricter(value, found))) found = value;
  return found;
}

/**
 * The mode in force: the user's (the composer's choice ?? a workspace value they allowed ?? their setting ??
 * the fallback ?? `ask`), unless the workspace's value is stricter. A looser workspace value not allowed is
 * `ignored`.
 */
export function resolveApproval(sources: ApprovalSources): ResolvedApproval {
  const repository = strictest([sources.workspace, sources.folder]);
  const allowed = repository !== undefined && repository === sources.allowed;
  const own: ResolvedApproval = isApprovalMode(sources.chosen)
    ? { mode: sources.chosen, source: 'chosen' }
    : allowed
      ? { mode: repository, source: 'workspace' }
      : isApprovalMode(sources.user)
        ? { mode: sources.user, source: 'user' }
        : { mode: isApprovalMode(sources.fallback) ? sources.fallback : 'ask', source: 'default' };
  if (repository === undefined) return own;
  if (stricter(repository, own.mode)) return { mode: repository, source: 'workspace' };
  // As strict (`plan` beside `read-only`): the user's stands, and nothing was loosened.
  return stricter(own.mode, repository) && !allowed ? { ...own, ignored: repository } : own;
}

/**
 * The mode in force, resolved once and kept until a source may have changed. Every call of a task reads the
 * mode, and reading the settings' layers each time cost a tenth of a millisecond a call; the owner calls
 * `invalidate` on whatever may change a source (a settings change, the composer's pick, an allow, the folders,
 * the workspace's trust), so a change still applies to the very next call.
 */
export class ApprovalCache {
  private resolved: ResolvedApproval | undefined;

  constructor(private readonly read: () => ApprovalSources) {}

  get(): ResolvedApproval {
    this.resolved ??= resolveApproval(this.read());
    return this.resolved;
  }

  invalidate(): void {
    this.resolved = undefined;
  }
}
