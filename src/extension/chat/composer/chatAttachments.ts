import { type PromptWithParts, type Transcript, promptParts } from '../../../agent';
import { t } from '@vscode/l10n';
import { type Attachment, MAX_ATTACHMENTS } from '../../../protocol/attachments';
import type { HostMessage, ViewMessage } from '../../../protocol/chatView';
import type { Workspace } from '../../../workspace';
import type { ChatContext } from './contextPort';
import { notePromptTitle } from '../history/promptTitle';

// The composer's attachments on the host's side: the `@` picker's answers, `@selection` and drops turned into
// chips, Add to Chat's chips kept until a page is there to show them, and a prompt's chips read into the parts
// the model gets (src/agent/conversation/attachments.ts) when its task starts.

export type AttachMessage = Extract<ViewMessage, { type: 'findContext' | 'attachSelection' | 'attachUris' }>;

export class ChatAttachments {
  /** Chips added while no page was there (Add to Chat before the panel loaded): sent when one is. */
  private waiting: Attachment[] = [];

  constructor(
    private readonly context: ChatContext | undefined,
    /** Whether the page got it (a hidden view's page is gone until shown again: it asks anew, `ready`). */
    private readonly send: (message: HostMessage) => Promise<boolean>,
    private readonly notice: (text: string) => void,
  ) {}

  /** Adds chips to the composer, now or once the page has loaded. */
  add(attachments: readonly Attachment[]): void {
    if (attachments.length === 0) return;
    // A message holds as many as one prompt may take (a drop of more names the rest no further).
    const some = attachments.slice(0, MAX_ATTACHMENTS);
    // Kept until the page has them: one that is not there yet (or hidden) gets them when it loads (`ready`).
    this.waiting = [...this.waiting, ...some].slice(-MAX_ATTACHMENTS);
    void this.send({ type: 'attach', attachments: some }).then((delivered) => {
      if (delivered) this.waiting = this.waiting.filter((attachment) => !some.includes(attachment));
    });
  }

  /** The page loaded: the chips it missed. */
  ready(): void {
    const waiting = this.waiting;
    this.waiting = [];
    this.add(waiting);
  }

  async receive(message: AttachMessage): Promise<void> {
    const context = this.context;
    if (!context) return this.notice(t('Attachments need the editor: they are not available here.'));
    switch (message.type) {
      case 'findContext':
        await this.send({ type: 'contextMatches', query: message.query, matches: await context.find(message.query) });
        return;
      case 'attachSelection': {
        const selection = context.selection();
        if (typeof selection === 'string') return this.notice(selection);
        return this.add([selection]);
      }
      case 'attachUris': {
        const { attachments, refused, images = [], notes = [] } = await context.fromUris(message.uris);
        this.add(attachments);
        if (images.length > 0) await this.send({ type: 'imageFiles', files: images });
        for (const note of notes) this.notice(note);
        if (refused.length > 0)
          this.notice(t("Not attached (only the workspace's files can be): {0}.", refused.slice(0, 5).join(', ')));
        return;
      }
    }
  }

  /**
   * The prompt as the agent sends it: its chips read now, each a labelled part after its text (an image, its
   * picture). One with an image gets its History title noted in `transcript` (promptTitle.ts).
   */
  async prompt(
    text: string,
    attachments: readonly Attachment[],
    workspace: Workspace,
    transcript?: Transcript,
  ): Promise<string | PromptWithParts> {
    if (attachments.length === 0) return text;
    if (transcript) notePromptTitle(transcript, text, attachments);
    const parts = await promptParts(attachments, { workspace, ...this.context?.sources() });
    return { text, parts };
  }
}
