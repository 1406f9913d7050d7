import * as fs from 'node:fs';
import { WorkspaceError } from '../workspaceError';

// Files read as exact text: BOM kept (as a leading U+FEFF), line endings untouched, and anything that is
// not UTF-8 text refused rather than decoded with replacement characters — an edit written back from a
// lossy decoding would corrupt the file.

/**
 * Files up to this size are read in one synchronous call: the read of a tool call sits between a model's
 * answer and the next request, and for a file this small the thread pool's round trips (stat, open, fstat,
 * read, close) cost far more than the read (about 0.2 ms against 30 µs for 10 KB here). Larger ones are
 * read asynchronously, so a big file never holds the extension host.
 */
export const SYNC_READ_BYTES = 256 * 1024;

/** Larger files are refused outright: the model reads ranges of what it can use, not 100 MB logs. */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

export interface DiskText {
  bytes: Buffer;
  text: string;
  mode: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const codeOf = (error: unknown) =>
  typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;

/** The text at `real`, or undefined when nothing is there. `path` names it in errors. */
export async function readDiskText(real: string, path: string): Promise<DiskText | undefined> {
  let stat;
  try {
    stat = fs.statSync(real);
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined;
    throw new WorkspaceError('io_error', `${path} cannot be read: ${(error as Error).message}`, path);
  }
  if (stat.isDirectory())
    throw new WorkspaceError('is_directory', `${path} is a directory; list it with find_files '${path}/**'.`, path);
  if (!stat.isFile()) throw new WorkspaceError('invalid_path', `${path} is not a regular file.`, path);
  if (stat.size > MAX_TEXT_FILE_BYTES) {
    const mb = (stat.size / 1024 / 1024).toFixed(1);
    throw new WorkspaceError(
      'too_large',
      `${path} is ${mb} MB, over the ${MAX_TEXT_FILE_BYTES / 1024 / 1024} MB limit for text files; search it with search_text instead.`,
      path,
    );
  }
  const bytes = await readBytes(real, stat.size).catch((error: Error) => {
    throw new WorkspaceError('io_error', `${path} cannot be read: ${error.message}`, path);
  });
  if (bytes.subarray(0, 8192).includes(0))
    throw new WorkspaceError(
      'binary_file',
      `${path} is a binary file (it contains NUL bytes); only text files can be read or edited.`,
      path,
    );
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new WorkspaceError(
      'binary_file',
      `${path} is not UTF-8 text; only UTF-8 text files can be read or edited.`,
      path,
    );
  }
  if (text.includes('\0'))
    throw new WorkspaceError(
      'binary_file',
      `${path} is a binary file (it contains NUL bytes); only text files can be read or edited.`,
      path,
    );
  return { bytes, text, mode: stat.mode & 0o7777 };
}

/** The file's bytes: at once when it is small (see SYNC_READ_BYTES), through the thread pool when not. */
async function readBytes(real: string, size: number): Promise<Buffer> {
  return size <= SYNC_READ_BYTES ? fs.readFileSync(real) : fs.promises.readFile(real);
}
