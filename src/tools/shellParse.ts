import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Language, type Node, Parser } from '@vscode/tree-sitter-wasm';

// A command line read as bash reads it, by tree-sitter's bash grammar (the parser Codex judges commands with;
// here the WebAssembly build VS Code ships, @vscode/tree-sitter-wasm). Only plain commands come out: words,
// quoted strings, pipes and `&&`, `||`, `;` lists. Anything else — an expansion, a substitution, a subshell, a
// redirection to a file, an assignment, a syntax error — makes the whole line "unsure", so nothing that could
// run code hides inside a command judged safe. Its words are the values a program receives (quotes removed),
// with where each ends in the line, so that a command can be rewritten where it stands (commandSafety.ts).

/** One word of a command as the program receives it. */
export interface ShellWord {
  value: string;
  /** Offsets in the command line (UTF-16 units, as JavaScript indexes strings). */
  start: number;
  end: number;
  /** An unquoted glob character (`*`, `?`, `[`): the shell expands it into file names. */
  glob: boolean;
  /** An unquoted `~` that the shell expands to a home folder. */
  tilde: boolean;
}

/** The commands of a line (each one program and its arguments), or why the line is not a plain one. */
export type ParsedLine = { ok: true; commands: ShellWord[][] } | { ok: false; reason: string };

/** Operators between plain commands. A newline separates commands as `;` does, and is no node of its own. */
const SEPARATORS = new Set([';', '&&', '||', '|']);

/** What a node the parser found is, in a reason shown to the user and the model. */
const CONSTRUCTS: Record<string, string> = {
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  subshell: 'a subshell',
  variable_assignment: 'an environment assignment',
  simple_expansion: 'a variable expansion',
  expansion: 'a variable expansion',
  arithmetic_expansion: 'arithmetic expansion',
  brace_expression: 'brace expansion',
  file_redirect: 'a redirection to a file',
  heredoc_redirect: 'a here-document',
  herestring_redirect: 'a here-string',
  ansi_c_string: "a $'…' string",
  translated_string: 'a $"…" string',
  comment: 'a comment',
  ERROR: 'a line the shell parser cannot read',
};

const describe = (type: string) => CONSTRUCTS[type] ?? `a shell construct (${type})`;

let loading: Promise<Parser> | undefined;

/** The parser, loaded once: its WebAssembly lies beside the bundle (esbuild.js copies it), or in node_modules. */
function parser(): Promise<Parser> {
  loading ??= (async () => {
    await Parser.init({ locateFile: () => wasmFile('tree-sitter.wasm') });
    const bash = await Language.load(wasmFile('tree-sitter-bash.wasm'));
    return new Parser().setLanguage(bash);
  })();
  return loading;
}

/** `dist/` for a bundle in `dist/` or `dist/cli/`; the package itself when run from the sources. */
function wasmFile(name: string): string {
  for (const dir of [__dirname, path.dirname(__dirname)]) {
    const beside = path.join(dir, name);
    if (existsSync(beside)) return beside;
  }
  return require.resolve(`@vscode/tree-sitter-wasm/wasm/${name}`);
}

/** Reads `line` as bash would, or says what in it is more than plain commands. */
export async function parseCommandLine(line: string): Promise<ParsedLine> {
  const odd = oddCharacter(line);
  if (odd !== undefined)
    return { ok: false, reason: `a control or space character (U+${hex(odd)}) the shell may read otherwise` };
  const tree = (await parser()).parse(line);
  if (!tree) return { ok: false, reason: describe('ERROR') };
  try {
    if (tree.rootNode.hasError) return { ok: false, reason: describe('ERROR') };
    const commands: ShellWord[][] = [];
    const reason = collect(tree.rootNode, commands) ?? strayBackslash(line, tree.rootNode);
    return reason === undefined ? { ok: true, commands } : { ok: false, reason };
  } finally {
    tree.delete();
  }
}

/**
 * Characters the parser may split a word at where the shell does not (tree-sitter takes `\r`, `\v` and `\f` for
 * blanks, bash only space, tab and newline), or that no command line needs: control characters other than tab
 * and newline, and Unicode's other spaces and separators.
 */
const UNICODE_SPACE = /[\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/u;

function oddCharacter(line: string): string | undefined {
  for (const char of line) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && char !== '\t' && char !== '\n') || (code >= 0x7f && code <= 0x9f) || UNICODE_SPACE.test(char))
      return char;
  }
  return undefined;
}
const hex = (char: string) => (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/** What a backslash escapes inside "…": there it is removed (and a newline with it), elsewhere it stays as text. */
const DOUBLE_QUOTE_ESCAPES = new Set(['$', '`', '"', '\\', '\n']);

/**
 * A backslash anywhere but inside '…' (where it is text) or before an ordinary character inside "…" (where it
 * is text too). Elsewhere the shell joins or escapes what the parser may read otherwise: `-ex\<newline>ec` is two
 * words to tree-sitter and `-exec` to bash, so a line with one is not plain.
 */
function strayBackslash(line: string, root: Node): string | undefined {
  const text = root.descendantsOfType(['raw_string', 'string_content']).filter((node): node is Node => node !== null);
  for (let at = line.indexOf('\\'); at !== -1; at = line.indexOf('\\', at + 1)) {
    const inside = text.find((node) => node.startIndex <= at && at < node.endIndex);
    const literal =
      inside?.type === 'raw_string' ||
      (inside?.type === 'string_content' && !DOUBLE_QUOTE_ESCAPES.has(line[at + 1] ?? '\n'));
    if (!literal) return 'a backslash outside single quotes (an escape or a line continuation)';
  }
  return undefined;
}

const childrenOf = (node: Node): Node[] => node.children.filter((child): child is Node => child !== null);

/** Adds the commands under `node` to `out`; returns why the line is not plain, if it is not. */
function collect(node: Node, out: ShellWord[][]): string | undefined {
  switch (node.type) {
    case 'program':
    case 'list':
    case 'pipeline':
      for (const child of childrenOf(node)) {
        const reason = child.isNamed ? collect(child, out) : SEPARATORS.has(child.type) ? undefined : operator(child);
        if (reason !== undefined) return reason;
      }
      return undefined;
    case 'redirected_statement':
      return redirected(node, out);
    case 'command':
      return command(node, out);
    default:
      return describe(node.type);
  }
}

const operator = (node: Node) =>
  node.type === '&' ? 'a command run in the background (&)' : `the operator ${node.type}`;

/** A command whose output goes nowhere (`2>/dev/null`) or to the other stream (`2>&1`): nothing is written. */
function redirected(node: Node, out: ShellWord[][]): string | undefined {
  const [body, ...redirects] = childrenOf(node);
  if (body?.type !== 'command') return describe(body?.type ?? 'ERROR');
  for (const redirect of redirects) if (!harmlessRedirect(redirect)) return describe(redirect.type);
  return command(body, out);
}

function harmlessRedirect(node: Node): boolean {
  if (node.type !== 'file_redirect') return false;
  const parts = childrenOf(node).filter((child) => child.type !== 'file_descriptor');
  const [op, target, ...rest] = parts;
  if (!op || !target || rest.length > 0 || op.isNamed) return false;
  if (['>', '>>', '&>', '&>>'].includes(op.type)) return target.type === 'word' && target.text === '/dev/null';
  return op.type === '>&' && /^[12]$/.test(target.text);
}

function command(node: Node, out: ShellWord[][]): string | undefined {
  const words: ShellWord[] = [];
  for (const child of childrenOf(node)) {
    const part = child.type === 'command_name' ? childrenOf(child)[0] : child;
    const word = part && wordOf(part);
    if (typeof word === 'string' || word === undefined) return word ?? describe(child.type);
    words.push(word);
  }
  out.push(words);
  return undefined;
}

/** A word's value, or why it is more than text (returned as a string). */
function wordOf(node: Node): ShellWord | string {
  const at = { start: node.startIndex, end: node.endIndex };
  switch (node.type) {
    case 'word':
    case 'number':
      return bareWord(node.text, at);
    case 'raw_string':
      return { ...at, value: node.text.slice(1, -1), glob: false, tilde: false };
    case 'string':
      return doubleQuoted(node, at);
    case 'concatenation':
      return concatenation(node, at);
    default:
      return describe(node.type);
  }
}

/**
 * Unquoted text: no escapes, no braces (brace expansion), no `$` or backquote (expansions), no parentheses (a
 * zsh glob qualifier runs code), and no leading `=` (zsh's `=cmd` is the path of a program).
 */
function bareWord(text: string, at: { start: number; end: number }): ShellWord | string {
  if (/[\\{}$`()<>]/.test(text) || text.startsWith('=')) return `the unquoted characters in ${text}`;
  return { ...at, value: text, glob: /[*?[]/.test(text), tilde: /(^|[=:])~/.test(text) };
}

/** "…" with nothing but text inside: a backslash that escapes something has made the line unsure already. */
function doubleQuoted(node: Node, at: { start: number; end: number }): ShellWord | string {
  let value = '';
  for (const child of childrenOf(node)) {
    if (child.type === 'string_content') value += child.text;
    else if (child.type !== '"') return describe(child.type);
  }
  return { ...at, value, glob: false, tilde: false };
}

/** Parts written together (`--glob='*.ts'`): one word; its globs and `~` are those of its unquoted parts. */
function concatenation(node: Node, at: { start: number; end: number }): ShellWord | string {
  const word: ShellWord = { ...at, value: '', glob: false, tilde: false };
  for (const child of childrenOf(node)) {
    const part = wordOf(child);
    if (typeof part === 'string') return part;
    word.tilde ||= part.tilde && (word.value === '' || /[=:]$/.test(word.value));
    word.value += part.value;
    word.glob ||= part.glob;
  }
  return word;
}
