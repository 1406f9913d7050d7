import { t } from '@vscode/l10n';
import type { Agent, DoneEvent, PromptStart, Transcript } from '../../agent';
import type { Attachment } from '../../protocol/attachments';
import type { HostMessage } from '../../protocol/chatView';
import type { ChatAttachments } from './composer/chatAttachments';
import type { ChatApprovals } from './approvals/chatApprovals';
import type { ChatCheckpoints } from './checkpoints/chatCheckpoints';
import type { ChatSaver } from './history/chatSaver';
import type { PromptChoices, PromptTurn } from './composer/promptTurn';
import type { ChatHandoffs } from './entries/chatHandoffs';
import { type ChatEventTargets, onChatEvent } from './chatEvents';
import type { ChatHost, ChatOutcome } from './chatPort';
import { messageOf } from './messageOf';

// The chat's agent and the tasks it runs: a prompt's task from its start on the window's lane to its end, what
// is told then (the page, the window's activity), and what runs next (the steers not delivered, the queue). The
// controller (chatController.ts) decides which conversation is shown; this runs its turns.

/** The parts of the chat a task reaches (the controller's own). */
export interface RunParts extends ChatEventTargets {
  readonly backend: ChatHost;
  readonly attachments: ChatAttachments;
  readonly approvals: ChatApprovals;
  readonly checkpoints: ChatCheckpoints;
  readonly saver: ChatSaver;
  readonly turn: PromptTurn;
  readonly handoffs: ChatHandoffs;
  /** The conversation shown now (undefined: a new chat with nothing kept yet). */
  shownTranscript(): Transcript | undefined;
  /** The conversation shown, its transcript made if it has none yet. */
  kept(): Transcript;
  send(message: HostMessage): void;
  /** The window is told the chat's busy state and transcript changed. */
  changed(): void;
}

/** One prompt's task: its text (undefined: Retry), its entry, chips, start marks and own choices. */
export interface TaskInput {
  prompt: string | undefined;
  userId?: string;
  attachments?: readonly Attachment[];
  start?: PromptStart;
  choices?: PromptChoices;
}

type End = Pick<DoneEvent, 'status' | 'reason'>;

export class ChatRun {
  /** The tasks started and not over: the running one, and prompts sent meanwhile (they wait their turn). */
  readonly tasks = new Set<AbortController>();
  /** The conversation's agent, made at its first task; dropped when the chat shown changes or a task fails. */
  agent: Agent | undefined;

  constructor(private readonly chat: RunParts) {}

  get busy(): boolean {
    return this.tasks.size > 0;
  }

  abort(): void {
    for (const task of this.tasks) task.abort();
    this.chat.approvals.declineWaiting();
  }

  async run(input: TaskInput): Promise<ChatOutcome> {
    const { chat } = this;
    const controller = new AbortController();
    this.tasks.add(controller);
    chat.handoffs.started();
    chat.send({ type: 'running', running: true });
    chat.changed();
    const end: End = { status: 'cancelled', reason: '' };
    // Steers the response took and did not deliver, when a failure drops its agent: they are not lost with it.
    const undelivered: string[] = [];
    let from = chat.model.all.length;
    try {
      await chat.backend.enqueue(async () => {
        if (controller.signal.aborted) return;
        from = chat.model.all.length;
        await this.runTurn(input, controller.signal, end, undelivered);
      }, controller.signal);
    } catch (error) {
      Object.assign(end, { status: 'failed', reason: messageOf(error) });
      // A task that failed while starting (a refused warm-up, no folder open) is one line with its remedy too.
      const code = (error as { code?: unknown } | null)?.code;
      const kept = chat.shownTranscript() !== undefined;
      chat.model.stopped(messageOf(error), typeof code === 'string' ? code : undefined, kept);
      this.agent = undefined;
    } finally {
      chat.turn.set(undefined);
      this.finished(controller, input.prompt, end, undelivered);
    }
    return { ok: end.status === 'completed', status: end.status, text: chat.model.answerSince(from) };
  }

  /**
   * `/compact`: the conversation shown compacted now (Agent.compact), as a task of its own on the lane, so that
   * a prompt sent meanwhile waits for it and Stop stops it. The chat says what was folded (the agent's
   * `compacted` event), or why nothing was; the next prompt goes on from the compaction. False when none was made.
   */
  async compact(): Promise<boolean> {
    const { chat } = this;
    const transcript = chat.shownTranscript();
    if (transcript === undefined) {
      chat.model.notice('info', t('Nothing to compact yet: this chat has no conversation.'));
      return false;
    }
    const controller = new AbortController();
    this.tasks.add(controller);
    chat.send({ type: 'running', running: true });
    chat.changed();
    let made = false;
    try {
      await chat.backend.enqueue(async () => {
        if (controller.signal.aborted) return;
        const agent = await this.agentFor(transcript);
        made = (await agent.compact(controller.signal)) !== undefined;
        if (!made) chat.model.notice('info', t('Nothing to compact: the conversation is already its summary.'));
      }, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted)
        chat.model.notice('error', t('The conversation could not be compacted: {0}', messageOf(error)));
    } finally {
      this.tasks.delete(controller);
      if (!this.busy) chat.send({ type: 'running', running: false });
      chat.saver.now();
      chat.changed();
      chat.queue.next();
    }
    return made;
  }

  /** The task's turn on the lane: the agent (made if need be), the prompt with its chips, the loop. */
  private async runTurn(input: TaskInput, signal: AbortSignal, end: End, undelivered: string[]): Promise<void> {
    const { chat } = this;
    const { prompt, start } = input;
    chat.turn.set(input.choices);
    start?.mark('echo');
    const transcript = chat.kept();
    chat.checkpoints.open(transcript.header.id);
    if (input.userId !== undefined) chat.checkpoints.begin(input.userId, transcript.items.length);
    // Written once the prompt's request is on the socket (a warm one sends without a turn of the loop).
    setImmediate(() => chat.saver.now());
    start?.mark('journal');
    const agent = await this.agentFor(transcript);
    start?.mark('agent');
    const workspace = prompt === undefined ? undefined : await chat.backend.workspace();
    const sent =
      workspace && (await chat.attachments.prompt(prompt ?? '', input.attachments ?? [], workspace, transcript));
    start?.mark('attachments');
    ({ status: end.status, reason: end.reason } = await agent.run(sent, signal, start));
    // The endpoint stopped the task (a refused key, nothing listening): the window builds its backend and
    // socket again, so the next run — Retry, or the next prompt — gets a new agent on them, with this
    // conversation's transcript, and picks up a key or endpoint mended meanwhile.
    if (end.status === 'failed') {
      undelivered.push(...agent.takeSteers());
      this.agent = undefined;
    }
  }

  /** The conversation's agent on `transcript`, made once. */
  private async agentFor(transcript: Transcript): Promise<Agent> {
    const { chat } = this;
    // A conversation left for a new chat may still be winding down: its events are not the new one's.
    this.agent ??= await chat.backend.agent(
      transcript,
      chat.approvals.policy(),
      (event) => {
        if (chat.shownTranscript() === transcript) onChatEvent(event, chat, this.agent?.registry);
      },
      (workspace) => chat.checkpoints.wrap(workspace),
      // The agent each request goes as is noted: a completed task offers its handoffs.
      (base) => chat.handoffs.noted(chat.turn.choices(base)),
    );
    chat.model.tools = this.agent.registry;
    return this.agent;
  }

  /** A task is over: the page and the window are told, and what was steered or queued runs next. */
  private finished(controller: AbortController, prompt: string | undefined, end: End, undelivered: string[]): void {
    const { chat } = this;
    this.tasks.delete(controller);
    if (!this.busy) chat.send({ type: 'running', running: false });
    if (!this.busy) chat.handoffs.ended(end.status);
    chat.saver.now();
    chat.changed();
    // What was steered and not delivered runs next, then what waits in the queue.
    if (!this.busy) chat.queue.requeue([...undelivered, ...(this.agent?.takeSteers() ?? [])]);
    chat.backend.activity?.ended({ ...end, prompt: prompt || undefined, more: this.busy || chat.queue.size > 0 });
    chat.queue.next();
  }
}
