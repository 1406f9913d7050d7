import type {
  Agent,
  AgentEvent,
  ApprovalMode,
  ApprovalPolicy,
  ApprovalRequest,
  FrontChoices,
  Transcript,
} from '../../agent';
import type { BackendInfo, HostMessage, Remedy } from '../../protocol/chatView';
import type { RunningCommand } from '../../protocol/runningCommands';
import type { CommandEnd, Workspace } from '../../workspace';
import type { SandboxFor } from '../trust/windowSandbox';
import type { ChatActivity } from './chatActivity';
import type { ChatContext } from './composer/contextPort';
import type { ComposerPort } from './composer/composerPort';
import type { SlashPort } from './composer/chatSlash';
import type { WorktreeAction } from '../../protocol/worktreeCard';

// What the chat panel's host side (chatController.ts) needs of the window around it, and what it answers:
// plain types, so that it is tested without VS Code (window/windowChatHost.ts is the window's side).

export interface ChatHost {
  workspace(): Promise<Workspace>;
  /**
   * An agent for this transcript on the window's socket, its events sent to `emit` (and the session's
   * listeners); its tools get the window's port through `tools` where given (the chat's checkpoint journal);
   * `choices`, read before every request, puts a prompt's own model and tools over the window's (promptTurn.ts).
   */
  agent(
    transcript: Transcript,
    approvals: ApprovalPolicy,
    emit: (event: AgentEvent) => void,
    tools?: (workspace: Workspace) => Workspace,
    choices?: (base: FrontChoices) => FrontChoices,
  ): Promise<Agent>;
  /**
   * Runs after the session's tasks already queued (one conversation at a time on the default lane), or, for a
   * chat on a lane of its own, once a slot is free (chatDeck.ts); `signal` aborted while it waits: at once.
   */
  enqueue<T>(run: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** A chat opened beside another (deck/chatDeck.ts): it starts empty, not as the chat before a reload. */
  beside?: boolean;
  /** `/new`: the window's New Chat, which opens a chat beside a running one (deck/chatDeck.ts); absent: start over. */
  newChat?(): void;
  /** A new transcript for a chat. */
  newTranscript(): Transcript;
  /** Where transcripts are kept. */
  sessionsDir: string;
  approvalMode(): ApprovalMode;
  /** This machine's sandbox for the chat's commands (windowSandbox.ts); absent: none (or tests). */
  sandbox?: SandboxFor;
  /** Asked when no panel is there to show Apply / Skip. */
  askElsewhere(request: ApprovalRequest): Promise<boolean>;
  /** Shows `before` against the file as it is now (VS Code's diff editor, keeping focus). */
  openDiff(path: string, before: string, title: string): Promise<void>;
  log(line: string): void;
  /** A task started or the last one ended; a transcript now exists (the window's context keys follow). */
  changed?(state: { busy: boolean; hasTranscript: boolean }): void;
  /** Opens a workspace file in the editor, at a line and column when given (a path clicked in the panel). */
  openFile?(path: string, line?: number, column?: number): Promise<void>;
  /** Runs the command of a stop's remedy (its line's button): Set API Key…, Select Endpoint… or Show Log. */
  remedy?(remedy: Remedy): Promise<void>;
  /** Stops the commands the chat left running in the background (a new chat leaves none behind). */
  stopCommands?(): void;
  /** Which backend the chat talks to (the empty chat says so). */
  backendInfo?(): BackendInfo;
  /** The composer's pickers and the project instructions' line, where the window has them. */
  composer?: ComposerPort;
  /** The composer's attachments (the `@` picker, drops, `@terminal`, `@changes`), where the window has them. */
  context?: ChatContext;
  /** Told when a call waits for approval and when a task ends (the window's notifications and badge). */
  activity?: ChatActivity;
  /** The commands the chat left running in the background (BackgroundCommands): the panel lists them, each with Stop. */
  commands?: ChatCommands;
  /** The `/` commands' prompt files, skills and `/review` (chatSlash.ts), where the window has them. */
  slash?: SlashPort;
  /** The worktree cards and the composer's "in a new worktree" (worktrees/worktreeCards.ts), where the window has them. */
  worktrees?: WorktreePort;
}

/** What the panel's worktree cards need of the window (docs/worktrees.md). */
export interface WorktreePort {
  /** Tells `show` the cards now and at each change after (a later call replaces `show`). */
  watch(show: (message: Extract<HostMessage, { type: 'worktrees' }>) => void): void;
  /** A card's button or file clicked. */
  act(action: WorktreeAction): Promise<void>;
  /** New Chat in Worktree with `text` as its first task; false: the user cancelled (the text goes back). */
  sendInWorktree(text: string): Promise<boolean>;
}

/** What the panel's list of commands running in the background needs of the window. */
export interface ChatCommands {
  /** Tells `show` the list now and at each change after (a later call replaces `show`). */
  watch(show: (commands: RunningCommand[]) => void): void;
  /** Stops one command's process group; settles once it is gone. */
  stop(id: number): Promise<void>;
  /** Session `id`, until the model has been told how it ended: its card follows it to its end. */
  get(id: number): { session: { ended: Promise<CommandEnd> } } | undefined;
}

/** Sends a message to the page: false (or a promise of false) when it was not delivered (a hidden view). */
export type PostToPage = (message: HostMessage) => void | boolean | PromiseLike<boolean>;

/** How a prompt sent through the chat ended: the answer's text, for callers such as the quick fix. */
export interface ChatOutcome {
  ok: boolean;
  status: 'completed' | 'failed' | 'stopped' | 'cancelled';
  text: string;
}
