import type { AttachmentSources } from '../../../agent';
import type { Attachment } from '../../../protocol/attachments';
import type { ContextMatch } from '../../../protocol/chatView';
import type { ImageFile } from '../../../protocol/images';

// What the chat's host side needs for the composer's attachments (the `@` picker, drops, Add to Chat): plain
// types, so the chat is tested without VS Code (window/chatContext.ts is the window's side).

export interface ChatContext {
  /** The workspace's files and folders matching `query`, best first (the editor's file search, .gitignore kept). */
  find(query: string): Promise<ContextMatch[]>;
  /** The active editor's selection as an attachment (its file and exact lines), or why there is none. */
  selection(): Attachment | string;
  /**
   * Dropped resources (`file:` URIs): those in the workspace as attachments, the others named in `refused`;
   * image files read for the page to scale (`images`), and why any was not (`notes`, a sentence each).
   */
  fromUris(
    uris: readonly string[],
  ): Promise<{ attachments: Attachment[]; refused: string[]; images?: ImageFile[]; notes?: string[] }>;
  /** Where `@terminal` and `@changes` are read from when a prompt is sent. */
  sources(): Omit<AttachmentSources, 'workspace'>;
}
