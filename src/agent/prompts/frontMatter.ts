import { load as loadYaml } from 'js-yaml';
import type { z } from 'zod';
import { frontMatterOf, skillBody } from '../skills/skillFile';

// The front matter of the Markdown files a team writes for its agents (prompt files, custom agents): an optional
// YAML block between two `---` lines (the skills' reader, skillFile.ts), checked with the file kind's own
// schema, and the body after it. What is wrong is a sentence naming it, never thrown: a team's broken file
// must not stop a task.

/** `content`'s front matter read with `schema` (none: `{}`), and its body, trimmed; or what is wrong with it. */
export function readFrontMatter<S extends z.ZodType>(
  content: string,
  schema: S,
): { fields: z.infer<S>; body: string } | { problem: string } {
  const yaml = frontMatterOf(content);
  let data: unknown = {};
  if (yaml !== undefined) {
    try {
      data = loadYaml(yaml) ?? {};
    } catch (error) {
      return { problem: `the front matter is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}` };
    }
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problem: 'the front matter is not a mapping of fields' };
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'the front matter is not valid' };
  const body = (yaml === undefined ? content.replace(/^\uFEFF/, '') : skillBody(content)).trim();
  return { fields: parsed.data, body };
}

/** A list or comma-separated text (`tools: Read, Grep`) as trimmed names, empties dropped. */
export function namesOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = typeof value === 'string' ? value.split(',') : value;
  return list.map((each) => each.trim()).filter((each) => each !== '');
}

/** Text on one line, its runs of white space one space. */
export const oneLine = (value: string) =>
  value
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(' ');
