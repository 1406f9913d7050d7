import type { ViewMessage } from '../protocol/chatView';
import { isImageFile } from './imageFiles';

// Files and folders dropped on the panel (from the explorer, or an editor's tab; VS Code lets a drag into a
// webview through with Shift held) are attached: the page reads the URIs the drag carries and the host
// attaches those in the workspace (`attachUris`). The page never reads a file itself, except an image dropped
// from outside the editor (a file of the system's, which the drop carries): that becomes an image chip in the
// page (imageIntake.ts), and its URI, if the drop names it too, is not attached again as a file.

/** The drag data that carry URIs: VS Code's own (`resourceurls`, `application/vnd.code.uri-list`), then the standard one. */
const URI_TYPES = ['application/vnd.code.uri-list', 'resourceurls', 'text/uri-list'];

/** The URIs in a drop's data: a JSON array (`resourceurls`) or a `text/uri-list` (one a line, `#` comments). */
export function droppedUris(data: Pick<DataTransfer, 'getData'>): string[] {
  for (const type of URI_TYPES) {
    const text = data.getData(type).trim();
    if (text === '') continue;
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) return parsed.filter((uri): uri is string => typeof uri === 'string');
      } catch {
        // Not JSON after all: read as a list.
      }
    }
    return text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
  }
  return [];
}

const carriesUris = (event: DragEvent) =>
  [...(event.dataTransfer?.types ?? [])].some((type) => URI_TYPES.includes(type) || type === 'Files');

const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp|bmp)$/i;

/**
 * Makes `target` take drops of files and folders (marked while one is over it); `images` takes the image
 * files a drop carries.
 */
export function acceptDrops(
  target: HTMLElement,
  post: (message: ViewMessage) => void,
  images: (files: File[]) => void = () => undefined,
): void {
  target.addEventListener('dragover', (event) => {
    if (!carriesUris(event)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    target.classList.add('drop-target');
  });
  target.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null || !target.contains(event.relatedTarget as Node))
      target.classList.remove('drop-target');
  });
  target.addEventListener('drop', (event) => {
    target.classList.remove('drop-target');
    if (!event.dataTransfer) return;
    const files = [...event.dataTransfer.files].filter(isImageFile);
    const uris = droppedUris(event.dataTransfer)
      .filter((uri) => files.length === 0 || !IMAGE_NAME.test(uri))
      .slice(0, 100);
    if (uris.length === 0 && files.length === 0) return;
    event.preventDefault();
    if (files.length > 0) images(files);
    if (uris.length > 0) post({ type: 'attachUris', uris });
  });
}
