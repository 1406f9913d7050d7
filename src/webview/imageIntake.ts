import type { Attachment } from '../protocol/attachments';
import { type ImageFile, MAX_IMAGES } from '../protocol/images';
import { h } from './dom';
import { fileOf, imageAttachment, isImageFile } from './imageFiles';
import { t } from './l10n';

// Images pasted into the prompt box or dropped on the panel (the files a drop carries, or those the host read
// for a drop from the explorer, which carries URIs only) become chips (imageFiles.ts scales them); what
// cannot be attached is said on a line under the chips until the next image or Send. A paste that carries
// text as well (a range copied from a spreadsheet comes with a picture of itself) pastes its text only.

export class ImageIntake {
  /** The line that says why an image was not attached. */
  readonly notice = h('div', { class: 'composer-notice hidden', attrs: { role: 'alert' } });

  constructor(
    private readonly add: (attachments: readonly Attachment[]) => void,
    /** The images the composer holds already. */
    private readonly held: () => number,
  ) {}

  /** Takes the images pasted into `prompt`. */
  listen(prompt: HTMLTextAreaElement): void {
    prompt.addEventListener('paste', (event) => {
      const data = event.clipboardData;
      if (!data || data.getData('text/plain') !== '') return;
      const files = [...data.files].filter(isImageFile);
      if (files.length === 0) return;
      event.preventDefault();
      void this.take(files);
    });
  }

  /** Makes chips of `files`, in order, up to MAX_IMAGES in the composer; says why any is left out. */
  async take(files: readonly File[]): Promise<void> {
    const problems: string[] = [];
    const room = Math.max(0, MAX_IMAGES - this.held());
    if (files.length > room) problems.push(t('A prompt takes at most {0} images.', MAX_IMAGES));
    const made: Attachment[] = [];
    for (const file of files.slice(0, room)) {
      try {
        made.push(await imageAttachment(file));
      } catch (error) {
        problems.push(t('Not attached: {0}.', error instanceof Error ? error.message : String(error)));
      }
    }
    this.say(problems.join('\n'));
    if (made.length > 0) this.add(made);
  }

  /** Makes chips of image files the host read (dropped from the explorer): as if the drop had carried them. */
  takeRead(images: readonly ImageFile[]): Promise<void> {
    return this.take(images.map(fileOf));
  }

  /** Clears the line (a prompt was sent). */
  clear(): void {
    this.say('');
  }

  private say(text: string): void {
    this.notice.textContent = text;
    this.notice.classList.toggle('hidden', text === '');
  }
}
