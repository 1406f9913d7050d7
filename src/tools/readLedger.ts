import { type FileSnapshot, type ReadStamp, hashText } from '../edit';
import type { WorkspaceFile } from '../workspace';

// What the model has seen of each file in this session: the version it read (or wrote) last, and that
// text. An edit to a file that changed since is planned on the text the model saw, then moved onto the
// file as it is now only where every hunk still fits exactly — so an edit made from an old read cannot
// overwrite what the user typed since. write_file refuses to overwrite a file the model never read.

/** Texts kept for re-planning; older ones are dropped (their stamps stay) to bound memory. */
export const LEDGER_TEXT_BYTES = 32 * 1024 * 1024;

interface Entry {
  version: string | number;
  /** The text's hash: computed when first asked for, or when the text is dropped (a read does not pay it). */
  hash?: string;
  text?: string;
}

const hashOf = (entry: Entry): string => (entry.hash ??= hashText(entry.text ?? ''));

export class ReadLedger {
  private readonly entries = new Map<string, Entry>();
  private textChars = 0;

  constructor(private readonly textLimit = LEDGER_TEXT_BYTES) {}

  /** The model saw `file` as it is now (a read, or the text it just wrote). */
  record(file: Pick<WorkspaceFile, 'path' | 'text' | 'version'>): void {
    this.forget(file.path);
    this.entries.set(file.path, { version: file.version, text: file.text });
    this.textChars += file.text.length;
    for (const entry of this.entries.values()) {
      if (this.textChars <= this.textLimit) break;
      if (entry.text === undefined || entry.text === file.text) continue;
      hashOf(entry);
      this.textChars -= entry.text.length;
      delete entry.text;
    }
  }

  stamp(path: string): ReadStamp | undefined {
    const entry = this.entries.get(path);
    return entry && { hash: hashOf(entry), version: entry.version };
  }

  /** The text the model last saw of `path`, as a snapshot with the version it had, if still kept. */
  seen(path: string): FileSnapshot | undefined {
    const entry = this.entries.get(path);
    return entry?.text === undefined ? undefined : { text: entry.text, version: entry.version };
  }

  /** A file deleted or moved away is no longer known. */
  forget(path: string): void {
    const entry = this.entries.get(path);
    if (entry?.text !== undefined) this.textChars -= entry.text.length;
    this.entries.delete(path);
  }

  /** Whether the model's last sight of `path` is `file` as it is now. */
  isCurrent(file: Pick<WorkspaceFile, 'path' | 'text' | 'version'>): boolean {
    const entry = this.entries.get(file.path);
    if (entry === undefined || entry.version !== file.version) return false;
    return entry.text === file.text || hashOf(entry) === hashText(file.text);
  }
}
