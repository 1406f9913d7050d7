import type { EditPlan } from '../edit';
import type { SandboxPolicy } from '../sandbox';

// The Workspace port (docs/architecture.md): everything the tools do to the user's code goes through this
// interface. Two adapters implement it — `node/` (files and processes: the CLI and the tests) and `vscode/`
// (TextDocuments, WorkspaceEdit, the ripgrep VS Code ships, vscode.tasks), both built on the Node-side pieces
// of `shared/`, which neither owns — and one contract suite holds both to the same behaviour;
// `MultiRootWorkspace` (./multiRootWorkspace.ts) puts several behind their folders' names. Paths are
// workspace-relative with `/` separators; lines and columns are 1-based. Failures throw a WorkspaceError
// with a stable code (./workspaceError.ts).

/** A text file as read: what the model sees, and the version the stale-read guard compares against later. */
export interface WorkspaceFile {
  path: string;
  /** Decoded text; a UTF-8 BOM is kept as a leading U+FEFF so that edits keep it. */
  text: string;
  /** Changes whenever the text does: a content hash (Node) or a document version (VS Code). */
  version: string | number;
}

/** What an adapter can do; tools that need a capability say plainly when it is missing. */
export interface WorkspaceCapabilities {
  /** Diagnostics from language services. */
  diagnostics: boolean;
  /** Tasks that can be listed and run. */
  tasks: boolean;
  /** Files may be changed (false in a workspace VS Code does not trust). Absent: true. */
  writes?: boolean;
  /** Shell commands may be run (`runCommand`; false in a workspace VS Code does not trust). Absent: true. */
  commands?: boolean;
}

export interface FoundFiles {
  /** Sorted, at most the requested number. */
  files: string[];
  /** How many matched in all. */
  total: number;
}

export interface TextQuery {
  query: string;
  isRegex: boolean;
  caseSensitive: boolean;
  /** A glob the file paths must match. */
  include?: string;
  maxResults: number;
}

export interface TextMatch {
  path: string;
  line: number;
  /** The line's text, without its line ending. */
  text: string;
}

export interface TextMatches {
  /** Sorted by path then line, at most the requested number. */
  matches: TextMatch[];
  /** Matches found in all (counting stops at a high bound; see `totalIsLowerBound`). */
  total: number;
  totalIsLowerBound: boolean;
  /** Files with at least one match. */
  files: number;
  /** Which search ran: what the model is told when results might differ. */
  engine: 'ripgrep' | 'javascript';
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: Severity;
  source?: string;
  message: string;
}

export interface TaskInfo {
  /** As VS Code names it: a tasks.json label, or `npm: <script>`. */
  label: string;
  /** Where it comes from, and what it runs. */
  detail: string;
}

export interface TaskList {
  tasks: TaskInfo[];
  /** Why a task file or entry was skipped (a malformed tasks.json…): the model is told. */
  problems: string[];
}

export interface TaskRun {
  /** null when the task was stopped (timeout) or died of a signal. */
  exitCode: number | null;
  /** Everything it printed (stdout and stderr interleaved), possibly only the tail; see `outputTruncated`. */
  output: string;
  outputTruncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface CommandOptions {
  /** A workspace path of a folder; undefined: the workspace's root (the first folder's, in multi-root). */
  workdir?: string | undefined;
  timeoutMs: number;
  /** The OS sandbox it runs in (docs/security.md); absent: unconfined, as a command the user typed. */
  sandbox?: CommandSandbox | undefined;
}

/**
 * How a command or task is confined: the policy, and the absolute folders it may write in workspace-write
 * (absent: the folder it runs in; a multi-root workspace names all of its folders).
 */
export interface CommandSandbox {
  policy: SandboxPolicy;
  roots?: readonly string[];
}

/** A task's run: its sandbox, as a command's. */
export interface TaskOptions {
  sandbox?: CommandSandbox | undefined;
}

/** How a command started with `startCommand` ended. */
export interface CommandEnd {
  /** null when it was stopped (timeout, `stop`) or died of a signal. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/** What a command started with `startCommand` printed since the last look, and its end once it has one. */
export interface CommandProgress {
  /** stdout and stderr interleaved, as text (colour codes removed); the middle cut past 256 KB. */
  output: string;
  outputTruncated: boolean;
  /** Undefined while it runs. */
  end: CommandEnd | undefined;
}

/**
 * A command that goes on running while the agent does other things (a dev server, a watcher, a prompt that
 * waits for input): its standard input stays open, and its output is read piece by piece.
 */
export interface CommandProcess {
  /** Its process id where the adapter knows it (a test checks the process is gone). */
  readonly pid: number | undefined;
  /** Settles when it has ended (by itself, by its timeout or by `stop`). */
  readonly ended: Promise<CommandEnd>;
  /** Writes `chars` to its standard input; false when it can no longer take any. */
  write(chars: string): Promise<boolean>;
  /** What it printed since the last call, once it ends or `waitMs` has passed, whichever is first. */
  read(waitMs: number): Promise<CommandProgress>;
  /** Stops its whole process tree (SIGTERM, then SIGKILL); settles when it is gone. */
  stop(): Promise<void>;
}

/** Where a workspace path is on this machine (`Workspace.locate`). */
export interface WorkspaceLocation {
  /** The canonical workspace path, as `readFile` names it (`folder/…` in a multi-root workspace). */
  path: string;
  /** The absolute file-system path of the folder the path is in, as the adapter was opened on it. */
  root: string;
  /** The absolute file-system path the workspace path names: `root` joined with the path within it. */
  absolute: string;
}

/** What applying a plan did. */
export interface AppliedPlan {
  /** Paths written, created, moved to or deleted. */
  changed: string[];
  /** The version each written file has now (what the next read returns), by path; deleted files absent. */
  versions: Record<string, string | number>;
  /** New diagnostics in the changed files, where the adapter has a language service. */
  diagnostics: Diagnostic[];
}

export interface Workspace {
  /** A name for messages (the folder's name). */
  readonly name: string;
  readonly capabilities: WorkspaceCapabilities;

  /**
   * Where a workspace path is: `src/a.ts`, or `folder/src/a.ts` in a multi-root workspace, mapped to the
   * folder it is in and its absolute path there (what an editor opens, a diff shows). The path is checked
   * and normalised by the rules `readFile` applies before it touches the disk (`..`, absolute paths
   * elsewhere and look-alikes refused; in multi-root, an unknown folder name), but the disk is not
   * consulted: the file need not exist, and symbolic links are not followed (reading it checks those).
   */
  locate(path: string): WorkspaceLocation;
  /** Reads a text file (unsaved editor text, in VS Code). Refuses paths outside, directories, binary files. */
  readFile(path: string): Promise<WorkspaceFile>;
  /** Like readFile, but undefined for a file that does not exist (edits need to know). */
  tryReadFile(path: string): Promise<WorkspaceFile | undefined>;
  /**
   * Applies a plan all or nothing. Each file must still be at the version the plan was computed against
   * (`FilePlan.version`), else nothing is written (`changed_on_disk`).
   */
  applyPlan(plan: EditPlan): Promise<AppliedPlan>;
  /** Files matching a glob, honouring `.gitignore` (and `files.exclude` in VS Code). */
  findFiles(glob: string, maxResults: number): Promise<FoundFiles>;
  /** Text search honouring `.gitignore`. */
  searchText(query: TextQuery): Promise<TextMatches>;
  /** Current diagnostics, of one file or all. Empty when `capabilities.diagnostics` is false. */
  diagnostics(path?: string): Promise<Diagnostic[]>;
  listTasks(): Promise<TaskList>;
  /** Runs a task to its end, or stops its whole process tree after `timeoutMs`; confined as `options` say. */
  runTask(label: string, timeoutMs: number, options?: TaskOptions): Promise<TaskRun>;
  /**
   * Runs `command` in the user's shell in `workdir` (a workspace folder path; the root by default), with
   * nothing on its standard input, to its end, or stops its whole process tree after `timeoutMs`.
   */
  runCommand(command: string, options: CommandOptions): Promise<TaskRun>;
  /**
   * Starts `command` as `runCommand` would, but with its standard input open and without waiting for its
   * end: the caller reads its output as it comes and stops it (its whole process tree) when done with it.
   * Absent where the adapter cannot reach a command's input; its timeout still stops it after `timeoutMs`.
   */
  startCommand?(command: string, options: CommandOptions): Promise<CommandProcess>;
}
