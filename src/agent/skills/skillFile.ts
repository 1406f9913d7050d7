import { load as loadYaml } from 'js-yaml';
import { z } from 'zod';

// One SKILL.md, checked against the Agent Skills format (agentskills.io/specification): a YAML front matter
// between two `---` lines, holding `name` (lowercase letters, digits and single hyphens, at most 64
// characters, the same as the skill's folder) and `description` (at most 1024 characters), and any of the
// optional fields (`license`, `compatibility`, `metadata`, `allowed-tools`), which are kept as they are and
// not checked: other tools read them, Loopwire does not. The body after the front matter is the skill's
// instructions, read by the model when it uses the skill. What is wrong is said in a sentence naming the
// field, never thrown: a team's broken skill must not stop a task.

/** Characters a name may have at most (the format's limit). */
export const SKILL_NAME_MAX = 64;
/** Characters a description may have at most (the format's limit). */
export const SKILL_DESCRIPTION_MAX = 1024;

/** The front matter's fields Loopwire reads; the others stay unchecked (loose). */
const FrontMatter = z.looseObject({
  name: z.string({ error: 'the field `name` is missing or not text' }),
  description: z.string({ error: 'the field `description` is missing or not text' }),
});

/** What a valid SKILL.md says of its skill. */
export interface SkillHeader {
  name: string;
  /** On one line: YAML's folded and literal blocks keep line breaks the list has no room for. */
  description: string;
}

/** The header of a SKILL.md whose folder is named `folder`, or what is wrong with it. */
export function parseSkillFile(text: string, folder: string): SkillHeader | { problem: string } {
  const yaml = frontMatterOf(text);
  if (yaml === undefined) return { problem: 'no YAML front matter (a first line `---`, the fields, then `---`)' };
  let data: unknown;
  try {
    data = loadYaml(yaml);
  } catch (error) {
    // js-yaml's message repeats the text with a caret under it: its first line says what and where.
    return { problem: `the front matter is not valid YAML: ${(error as Error).message.split('\n')[0] ?? ''}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { problem: 'the front matter is not a mapping of fields' };
  const parsed = FrontMatter.safeParse(data);
  if (!parsed.success) return { problem: firstIssue(parsed.error) };
  const name = oneLine(parsed.data.name);
  const description = oneLine(parsed.data.description);
  const nameProblem = checkName(name, folder);
  if (nameProblem) return { problem: nameProblem };
  if (description === '') return { problem: 'the field `description` is empty' };
  if ([...description].length > SKILL_DESCRIPTION_MAX)
    return { problem: `the description is longer than ${SKILL_DESCRIPTION_MAX} characters` };
  return { name, description };
}

/** What breaks the format's rules for a name, if anything. */
function checkName(name: string, folder: string): string | undefined {
  if (name === '') return 'the field `name` is empty';
  if ([...name].length > SKILL_NAME_MAX) return `the name '${name}' is longer than ${SKILL_NAME_MAX} characters`;
  if (!/^[a-z0-9-]+$/.test(name)) return `the name '${name}' may hold only lowercase letters, digits and hyphens`;
  if (name.startsWith('-') || name.endsWith('-') || name.includes('--'))
    return `the name '${name}' may not start or end with a hyphen, nor have two in a row`;
  if (name !== folder) return `the name '${name}' is not its folder's name '${folder}'`;
  return undefined;
}

/** The text between a first line `---` and the next line `---`; undefined where there is none (prompt files read it too). */
export function frontMatterOf(text: string): string | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return undefined;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  return end < 0 ? undefined : lines.slice(1, end).join('\n');
}

/** The body after the front matter (the skill's instructions), or the whole text where there is none. */
export function skillBody(text: string): string {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return text;
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  return end < 0
    ? text
    : lines
        .slice(end + 1)
        .join('\n')
        .replace(/^\s*\n/, '');
}

const oneLine = (text: string) =>
  text
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(' ');

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'the front matter does not hold `name` and `description`';
}
