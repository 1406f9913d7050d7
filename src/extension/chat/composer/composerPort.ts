import type { HostMessage, ViewMessage } from '../../../protocol/chatView';

// What the chat's host side needs for the composer's pickers and the project instructions' line: plain
// types, so the chat is tested without VS Code (windowComposer.ts is the window's side).

export type ChooseMessage = Extract<ViewMessage, { type: 'choose' }>;

export interface ComposerPort {
  /** Where the pickers' values and the instructions' line go, now and whenever they change. */
  attach(post: (message: HostMessage) => void): void;
  /** The page loaded: both are sent again. */
  refresh(): void;
  /** A picker changed: its setting is written for this workspace (the model's Other… asks for a name). */
  choose(message: ChooseMessage): Promise<void>;
  /** Implement: the approval mode goes back to the one before plan mode was picked (`ask` when not known). */
  leavePlanMode?(): Promise<void>;
  /** Opens an instruction file the line names (only one that was found). */
  openInstructions(path: string): Promise<void>;
  /** Sends an untrusted workspace's instructions after all, from the next task on. */
  allowInstructions(): Promise<void>;
}
