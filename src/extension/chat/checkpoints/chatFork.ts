import { t } from '@vscode/l10n';
import { type Transcript, forkTranscript, newSessionId } from '../../../agent';
import type { Attachment } from '../../../protocol/attachments';
import type { ChatEntry, ContextMeter } from '../../../protocol/chatView';
import type { ChatCheckpoints } from './chatCheckpoints';
import type { ChatTakeBack } from './chatTakeBack';
import type { ReviewBook, SavedReview } from '../../review/reviewBook';
import { ReviewRefused } from '../../review/reviewEdits';
import { sessionFile } from '../history/sessionHistory';

// Edit and resend forks a chat at a prompt: a new session in the chats' folder holding the transcript's
// items before it (the same objects, so its first request chains from the response that ended there while
// the socket holds it). The chat being left keeps its own transcript, snapshot and checkpoints: a past chat
// of its own in History, reopened and continued like any other.

/** The fork of `transcript` at item `at`, kept in `dir` beside the other chats. */
export function forkChat(transcript: Transcript, at: number, dir: string): Transcript {
  const id = newSessionId();
  return forkTranscript(transcript, at, id, sessionFile(dir, id));
}

/** Where a fork at a prompt cuts, and what the fork keeps of the chat it leaves. */
export interface ForkPlan {
  /** The transcript's items before the prompt. */
  at: number;
  /** The panel's entries before it. */
  entries: ChatEntry[];
  /** What was attached to the prompt: the edited prompt keeps it, read again as the files are now. */
  attachments: readonly Attachment[];
  /** The reviews of the edits before it. */
  reviews: SavedReview[];
}

/** The fork at prompt `id` of a chat showing `entries`; refused where the prompt is no longer in it. */
export function planFork(
  id: string,
  chat: { transcript: Transcript; entries: readonly ChatEntry[]; checkpoints: ChatCheckpoints; reviews: SavedReview[] },
): ForkPlan {
  const at = chat.checkpoints.forkPoint(id, chat.entries, chat.transcript.items);
  const index = chat.entries.findIndex((entry) => entry.id === id);
  if (at === undefined || index < 0) throw new ReviewRefused(t('That message is not in this chat any more.'));
  const edited = chat.entries[index];
  const entries = chat.entries.slice(0, index);
  const calls = new Set(entries.flatMap((entry) => (entry.kind === 'tool' ? [entry.id] : [])));
  return {
    at,
    entries,
    attachments: edited?.kind === 'user' ? (edited.attachments ?? []) : [],
    reviews: chat.reviews.filter((review) => calls.has(review.callId)),
  };
}

/** What Edit and resend needs of the chat it forks. */
export interface ResendChat {
  transcript: Transcript | undefined;
  entries: readonly ChatEntry[];
  context: ContextMeter | undefined;
  checkpoints: ChatCheckpoints;
  reviews: ReviewBook;
  takeBack: ChatTakeBack;
  sessionsDir: string;
  /** The page asks first what happens to the files Loopwire wrote since (`resendAsk`). */
  ask(prompt: { id: string; text: string; paths: string[] }): void;
  /** The chat shown becomes the fork, showing `entries`. */
  leaveFor(fork: Transcript, entries: ChatEntry[], context: ContextMeter | undefined): void;
  /** The fork is shown whole. */
  shown(): void;
  /** Sends the edited prompt, in the fork. */
  send(text: string, attachments: readonly Attachment[]): void;
}

/** A prompt as edited: its text, its chips as they stand (absent: the prompt's own), the answer about files. */
export interface EditedPrompt {
  id: string;
  text: string;
  files?: 'restore' | 'keep' | undefined;
  attachments?: readonly Attachment[] | undefined;
}

/**
 * Edit and resend: the chat forks at prompt `id`, after asking what happens to the files Loopwire wrote
 * since (`files` is the answer: they go back to how they were, or stay), and `text` is sent in the fork with
 * the edited prompt's attachments (an image alone is a prompt, as at its first Send); the old branch stays in
 * History.
 */
export async function resendInFork({ id, text, files, attachments }: EditedPrompt, chat: ResendChat): Promise<void> {
  const { transcript } = chat;
  if (!transcript) throw new ReviewRefused(t('That message is not in this chat any more.'));
  const changed = chat.checkpoints.changedSince(id);
  if (files === undefined && changed.length > 0) return chat.ask({ id, text, paths: changed });
  const plan = planFork(id, {
    transcript,
    entries: chat.entries,
    checkpoints: chat.checkpoints,
    reviews: chat.reviews.saved(),
  });
  const restored = files === 'restore' ? await chat.takeBack.restoreFiles(id) : undefined;
  const fork = forkChat(transcript, plan.at, chat.sessionsDir);
  chat.checkpoints.fork(fork.header.id, id);
  chat.leaveFor(fork, plan.entries, chat.context);
  await chat.reviews.restore(plan.reviews);
  chat.shown();
  if (restored) await chat.takeBack.show(restored);
  chat.send(text, attachments ?? plan.attachments);
}
