import type { ViewMessage } from '../protocol/chatView';

// Files and folders dropped on the panel (from the explorer, or an editor's tab; VS Code lets a drag into a
// webview through with Shift held) are attached: the page reads the URIs the drag carries and the host
// attaches those in the workspace (`attachUris`). The page never reads a file itself.

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

/** Makes `target` take drops of files and folders (marked while one is over it). */
export function acceptDrops(target: HTMLElement, post: (message: ViewMessage) => void): void {
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
    const uris = droppedUris(event.dataTransfer).slice(0, 100);
    if (uris.length === 0) return;
    event.preventDefault();
    post({ type: 'attachUris', uris });
  });
}
