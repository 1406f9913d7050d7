// Workspace paths in a tool's output, found so the card can make them open the file: `src/cart.js`,
// `src/cart.js:12`, `src/cart.js:12:5`, `test/a.test.js(12,5)`. Plain string work, no DOM: the card builds
// the links (toolCard.ts). Conservative on purpose: a relative path only (never absolute, never with `..`,
// never part of a URL), with a `/` and a file extension, or a bare name with a common source extension.

export interface PathLink {
  /** Where the token starts and ends in the text (the line suffix included). */
  start: number;
  end: number;
  /** The path as the host opens it, relative to the workspace (`./` dropped). */
  path: string;
  line?: number;
  column?: number;
}

/**
 * A path token and its optional position: `:line[:column]` or `(line[,column])`. The lookbehind keeps a
 * token from starting inside a longer one (the rest of a URL or of an absolute path).
 */
const TOKEN =
  /(?<![\w@.+/\\:~-])([\w@.+-]+(?:\/[\w@.+-]+)*)(?::(\d{1,9})(?::(\d{1,9}))?|\((\d{1,9})(?:,\s?(\d{1,9}))?\))?/g;

/** Extensions a bare file name (no `/`) must have to count: `cart.js`, not `e.g.` or `cart.total`. */
const SOURCE_EXTENSIONS = new Set(
  (
    'js mjs cjs jsx ts mts cts tsx json jsonc md mdx css scss less html htm vue svelte py rb go rs java kt ' +
    'c h cc cpp hpp cs swift php sh bash zsh ps1 yml yaml toml ini cfg conf xml sql graphql txt lock env'
  ).split(' '),
);

/** Names that read like files but are products (Node prints `Node.js v20.9.0` under a crash). */
const NOT_FILES = new Set(['node.js', 'vue.js', 'next.js', 'nuxt.js', 'react.js', 'express.js', 'three.js', 'd3.js']);

const extension = (name: string): string | undefined => /\.([A-Za-z][A-Za-z0-9]{0,9})$/.exec(name)?.[1];

/**
 * The path as the host would open it, or undefined when it is no safe workspace path: absolute, a URL, with
 * a `.`/`..` segment after the start, with whitespace or control characters, or too long.
 */
export function workspacePath(text: string): string | undefined {
  const path = text.replace(/^(?:\.\/)+/, '');
  if (path === '' || path.length > 4096) return undefined;
  // Whitespace and control characters: not something a tool prints as one path we should guess at.
  if (/[\s\\]/.test(path) || hasControl(path)) return undefined;
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return undefined;
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return undefined;
  return path;
}

/** Whether a token (no position) looks like a file path rather than a word, a number or a member access. */
function looksLikePath(token: string): boolean {
  const segments = token.split('/');
  const name = segments.at(-1) ?? '';
  const ext = extension(name);
  if (segments.length === 1)
    return (
      ext !== undefined &&
      SOURCE_EXTENSIONS.has(ext.toLowerCase()) &&
      name !== `.${ext}` &&
      !NOT_FILES.has(name.toLowerCase())
    );
  // `example.com/a.html`: a host name before the first `/` is a URL without its scheme, not a folder.
  if (/^[\w-]+(?:\.[\w-]+)+$/.test(segments[0] ?? '')) return false;
  return ext !== undefined;
}

const position = (digits: string | undefined): number | undefined => {
  if (digits === undefined) return undefined;
  const value = Number(digits);
  return value > 0 ? value : undefined;
};

/** Every path (with its position, if any) in `text`, in order, not overlapping. */
export function findPathLinks(text: string): PathLink[] {
  const links: PathLink[] = [];
  for (const match of text.matchAll(TOKEN)) {
    let token = match[1] ?? '';
    const start = match.index;
    let end = start + match[0].length;
    const hasPosition = match[2] !== undefined || match[4] !== undefined;
    if (!hasPosition) {
      // A sentence's full stop (or an ellipsis) is not part of the path.
      const trimmed = token.replace(/\.+$/, '');
      end -= token.length - trimmed.length;
      token = trimmed;
    }
    if (!looksLikePath(token)) continue;
    const path = workspacePath(token);
    if (path === undefined) continue;
    const line = position(match[2] ?? match[4]);
    const column = line === undefined ? undefined : position(match[3] ?? match[5]);
    links.push({
      start,
      end,
      path,
      ...(line === undefined ? {} : { line }),
      ...(column === undefined ? {} : { column }),
    });
  }
  return links;
}

/**
 * Where a card's summary names the paths its call touches (`paths`, as the host sent them): the first place
 * each stands as a whole token (not inside a longer path), in order, not overlapping; a path that is no safe
 * workspace path, or that the summary does not name, gets none.
 */
export function summaryLinks(summary: string, paths: readonly string[]): PathLink[] {
  const links: PathLink[] = [];
  for (const given of new Set(paths)) {
    const path = workspacePath(given);
    if (path === undefined) continue;
    for (let start = summary.indexOf(given); start >= 0; start = summary.indexOf(given, start + 1)) {
      const end = start + given.length;
      const whole = !/[\w./-]/.test(summary[start - 1] ?? '') && !/[\w/-]/.test(summary[end] ?? '');
      if (whole && links.every((link) => end <= link.start || start >= link.end)) {
        links.push({ start, end, path });
        break;
      }
    }
  }
  return links.sort((a, b) => a.start - b.start);
}

/** A control character (U+0000–U+001F, U+007F): checked by code, where a regular expression would need them in its source. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
