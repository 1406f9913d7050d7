import { jsonArguments, mainArgument, stringArgument } from './callSummary';

// The workspace paths a call touches, from its whole input, for a card to link (`ToolDefinition.paths`). A
// built-in tool names its own path arguments; a tool known only by its JSON Schema (an MCP server's, the
// editor's) has them found by name or description (`schemaPathArguments`), and is summarised by them too.

/** The last word of an argument's name that makes it a path: `path`, `file_path`, `filePath`, `uri`, `dir`… */
const PATH_WORDS = new Set([
  'path',
  'paths',
  'file',
  'files',
  'filename',
  'filenames',
  'filepath',
  'filepaths',
  'uri',
  'uris',
  'dir',
  'directory',
  'folder',
]);

/** A description that says its argument is a path: "Path of the file", "the file name to read". */
const PATH_DESCRIPTION = /\b(?:paths?|file ?names?|file to|files to)\b/i;

/** A tool's `paths`: the non-empty strings (or lists of strings) its JSON arguments give under `keys`, in order. */
export function argumentPaths(...keys: string[]): (input: string) => string[] {
  return (input) => {
    const args = jsonArguments(input);
    const values = keys.flatMap((key): unknown[] => {
      const value: unknown = args[key];
      return Array.isArray(value) ? (value as unknown[]) : [value];
    });
    return [...new Set(values.filter((value): value is string => typeof value === 'string' && value.trim() !== ''))];
  };
}

/** A JSON Schema's properties, each as an object (others left out). */
function schemaProperties(schema: Record<string, unknown>): [string, Record<string, unknown>][] {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? [[key, value as Record<string, unknown>]] : [],
  );
}

/** Whether a JSON Schema property holds a string or a list of strings. */
function holdsStrings(property: Record<string, unknown>): boolean {
  if (property['type'] === 'string') return true;
  const items = property['items'];
  return (
    property['type'] === 'array' &&
    typeof items === 'object' &&
    items !== null &&
    (items as Record<string, unknown>)['type'] === 'string'
  );
}

/**
 * The arguments of a JSON Schema that name workspace paths: string (or string list) properties whose name
 * ends in a word for one (`path`, `file_path`, `filePath`, `uri`…) or whose description says it is one.
 */
export function schemaPathArguments(schema: Record<string, unknown>): string[] {
  return schemaProperties(schema).flatMap(([key, property]) => {
    if (!holdsStrings(property)) return [];
    const words = key
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== '');
    const description = typeof property['description'] === 'string' ? property['description'] : '';
    return PATH_WORDS.has(words.at(-1) ?? '') || PATH_DESCRIPTION.test(description) ? [key] : [];
  });
}

/**
 * What a call of a tool known by its JSON Schema is about, in one line: the shared main argument (path,
 * pattern, query, label), else its first path argument, else its only string argument; also while streaming.
 */
export function schemaSummary(schema: Record<string, unknown>): (input: string) => string {
  const strings = schemaProperties(schema).filter(([, property]) => property['type'] === 'string');
  const [sole] = strings.length === 1 ? strings.map(([key]) => key) : [];
  const keys = [...schemaPathArguments(schema), ...(sole === undefined ? [] : [sole])];
  return (input) => {
    const main = mainArgument(input);
    if (main !== '') return main;
    for (const key of keys) {
      const value = stringArgument(input, key, { open: true });
      if (value) return value;
    }
    return '';
  };
}
