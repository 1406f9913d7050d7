import type { Attachment } from '../../protocol/attachments';
import type { HostMessage } from '../../protocol/chatView';
import { ChatAttachments } from './composer/chatAttachments';
import { ChatApprovals } from './approvals/chatApprovals';
import { ChatCheckpoints } from './checkpoints/chatCheckpoints';
import { ChangedFiles } from '../review/changedFiles';
import { ChatModel } from './chatModel';
import type { ChatOutbox } from './chatOutbox';
import type { ChatHost, ChatOutcome } from './chatPort';
import { PromptQueue } from './composer/chatQueue';
import { ChatSaver } from './history/chatSaver';
import { snapshotOf } from './history/chatSnapshot';
import { ChatTakeBack } from './checkpoints/chatTakeBack';
import { ReviewBook } from '../review/reviewBook';

// The chat controller's collaborators, built and joined in one place (chatController.ts keeps the
// conversation and its tasks): each gets what it asks of the others and of the controller, no more.

/** What the collaborators ask of the controller that owns them. */
export interface ChatOwner {
  readonly outbox: ChatOutbox;
  /** Posts to the panel where one shows; false where none does or the post failed. */
  postToPanel(message: HostMessage): Promise<boolean>;
  panelShown(): boolean;
  busy(): boolean;
  /** The current conversation's id, once it has a transcript. */
  sessionId(): string | undefined;
  /** The custom agent whose handoffs the chat offers now (chatHandoffs.ts), for its snapshot. */
  handoffsOf(): string | undefined;
  sendState(): void;
  send(message: HostMessage): void;
  ask(text: string, attachments: readonly Attachment[]): Promise<ChatOutcome>;
  abortTasks(): void;
  /** The running task's agent takes a steer, or says no (none runs yet, or its task is over). */
  steer(text: string): boolean;
}

export interface ChatParts {
  model: ChatModel;
  attachments: ChatAttachments;
  checkpoints: ChatCheckpoints;
  saver: ChatSaver;
  approvals: ChatApprovals;
  reviews: ReviewBook;
  takeBack: ChatTakeBack;
  changedFiles: ChangedFiles;
  queue: PromptQueue;
}

export function wireChat(owner: ChatOwner, backend: ChatHost): ChatParts {
  const log = (line: string) => backend.log(line);
  const workspace = () => backend.workspace();
  // In the order they were always built: each reads the ones after it only once the chat runs.
  const attachments = new ChatAttachments(
    backend.context,
    (message) => owner.postToPanel(message),
    (text) => model.notice('warning', text),
  );
  const checkpoints = new ChatCheckpoints(backend.sessionsDir, log);
  // The chat as a reloaded window finds it again; none while it has no transcript.
  const snapshot = () => {
    const id = owner.sessionId();
    return id === undefined
      ? undefined
      : snapshotOf(id, owner.busy(), model, reviews.saved(), approvals.allowed, owner.handoffsOf());
  };
  const saver = new ChatSaver(backend.sessionsDir, log, snapshot);
  const model = new ChatModel(
    (message) => {
      owner.outbox.send(message);
      saver.soon();
    },
    async (path) => (await (await workspace()).tryReadFile(path))?.text,
  );
  model.onState = () => owner.sendState();
  model.approvalMode = () => backend.approvalMode();
  const approvals = new ChatApprovals({
    model,
    workspace,
    approvalMode: () => backend.approvalMode(),
    sandbox: backend.sandbox,
    panelShown: () => owner.panelShown(),
    askElsewhere: (request) => backend.askElsewhere(request),
    onAllowed: () => saver.now(),
    onWaiting: (calls) => backend.activity?.waiting(calls),
  });
  const reviews = new ReviewBook(workspace, (callId, diff) => model.updateTool(callId, { diff }));
  reviews.onChange(() => saver.soon());
  const takeBack = new ChatTakeBack({
    model,
    reviews,
    checkpoints,
    busy: () => owner.busy(),
    workspace,
    openDiff: (path, before, title) => backend.openDiff(path, before, title),
  });
  const changedFiles = new ChangedFiles(workspace, reviews);
  const queue = new PromptQueue({
    busy: () => owner.busy(),
    run: (text, chips) => owner.ask(text, chips),
    stopTask: () => owner.abortTasks(),
    steer: (text) => owner.steer(text),
    send: (message) => owner.send(message),
  });
  return { model, attachments, checkpoints, saver, approvals, reviews, takeBack, changedFiles, queue };
}
