import { z } from 'zod';
import { namesOf, oneLine, readFrontMatter } from './frontMatter';

// One prompt file (`NAME.prompt.md`, VS Code's format: code.visualstudio.com/docs/copilot/customization/prompt-files):
// an optional YAML front matter between two `---` lines, read with the shared reader (frontMatter.ts), holding any
// of `description`, `name` (default: the file's name without `.prompt.md`), `argument-hint`, `agent`, `model` and
// `tools` (a list of tool or tool-set names); the body after it is the prompt. Other fields are allowed and not
// read. What is wrong is said in a sentence naming the field, never thrown: a team's broken prompt file must not
// stop a task.

/** The ending that makes a Markdown file a prompt file. */
export const PROMPT_FILE_ENDING = '.prompt.md';

/** A name as typed after `/`: a letter or digit, then letters, digits, `-`, `_` or `.`. */
export const COMMAND_NAME = /^[A-Za-z0-9][\w.-]*$/;

const text = (field: string) => z.string({ error: `the field \`${field}\` is not text` }).optional();

/** The front matter's fields Loopwire reads; the others stay unchecked (loose). */
const FrontMatter = z.looseObject({
  description: text('description'),
  name: text('name'),
  'argument-hint': text('argument-hint'),
  agent: text('agent'),
  model: text('model'),
  tools: z
    .union([z.array(z.string()), z.string()], { error: 'the field `tools` is not a list of tool names' })
    .optional(),
});

/** What a valid prompt file says. */
export interface PromptFileHeader {
  name: string;
  /** On one line; empty where the file gives none. */
  description: string;
  argumentHint?: string;
  agent?: string;
  model?: string;
  /** The tool and tool-set names as written (VS Code's); undefined: the tools are not narrowed. */
  tools?: string[];
  /** The prompt: the body after the front matter. */
  body: string;
}

/** The prompt file named `fileName` (`fix-test.prompt.md`) holding `content`, or what is wrong with it. */
export function parsePromptFile(content: string, fileName: string): PromptFileHeader | { problem: string } {
  const read = readFrontMatter(content, FrontMatter);
  if ('problem' in read) return read;
  const { fields, body } = read;
  const name = oneLine(fields.name ?? fileName.slice(0, -PROMPT_FILE_ENDING.length));
  if (!COMMAND_NAME.test(name))
    return { problem: `the name '${name}' cannot follow a /: use letters, digits, '-', '_' or '.'` };
  const tools = namesOf(fields.tools);
  if (body === '') return { problem: 'the prompt (the text after the front matter) is empty' };
  return {
    name,
    description: oneLine(fields.description ?? ''),
    ...optional('argumentHint', fields['argument-hint']),
    ...optional('agent', fields.agent),
    ...optional('model', fields.model),
    ...(tools ? { tools } : {}),
    body,
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const trimmed = value === undefined ? '' : oneLine(value);
  return trimmed === '' ? {} : ({ [key]: trimmed } as Record<K, string>);
}

/**
 * A prompt file's `model` as a model id: VS Code's files name models as its picker shows them (`GPT-4o`,
 * `Claude Sonnet 4 (copilot)`); the vendor in brackets goes, and a name with capitals or spaces is lowercased,
 * spaces as hyphens (`gpt-4o`, `claude-sonnet-4`). An id (`gpt-5.2-codex`) stays as it is.
 */
export function promptModelId(model: string): string {
  const bare = model.replace(/\s*\([^)]*\)\s*$/, '').trim();
  return /[A-Z\s]/.test(bare) ? bare.toLowerCase().replace(/\s+/g, '-') : bare;
}
