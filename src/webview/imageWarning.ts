import type { Attachment } from '../protocol/attachments';
import type { ComposerChoices } from '../protocol/chatView';
import { h } from './dom';
import { t } from './l10n';

// A line under the composer's chips while they hold an image and the model picked does not take images, as
// far as the model catalogue knows (gpt-oss, a name it does not list): the prompt still goes, since an
// endpoint may know better, but the user learns before Send why it may be refused.

export class ImageModelWarning {
  readonly element = h('div', { class: 'composer-warning hidden', attrs: { role: 'status' } });
  private model: string | undefined;
  private takesImages = true;
  private holdsImages = false;

  /** The pickers' values changed: the model, and whether it takes images. */
  choices(choices: ComposerChoices): void {
    this.model = choices.model;
    this.takesImages = choices.images !== false;
    this.render();
  }

  /** The composer's chips changed. */
  chips(attachments: readonly Attachment[]): void {
    this.holdsImages = attachments.some((attachment) => attachment.kind === 'image');
    this.render();
  }

  private render(): void {
    const model = this.holdsImages && !this.takesImages ? this.model : undefined;
    this.element.textContent =
      model === undefined
        ? ''
        : t('{0} does not take images, as far as Loopwire knows: the endpoint may refuse this prompt.', model);
    this.element.classList.toggle('hidden', model === undefined);
  }
}
