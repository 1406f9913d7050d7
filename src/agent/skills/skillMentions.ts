import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type AnyInputItem, NAMED_SKILL_OPEN } from '../../protocol';
import type { Skill } from './skillDiscovery';
import { userMessage } from './skillsItem';

// A skill the user names in a prompt (`$name`) is one the model must use for this task. As Codex does
// (codex-rs/core/src/skills/injection.rs), the prompt is followed by a message carrying that skill's SKILL.md,
// so that the model starts from its instructions without a read; a name two skills share names neither (the
// model still sees `$name` in the prompt and both in the list, and asks or picks), and a name no skill has is
// left as the text it is (`$HOME`, `$1`).

/** Bytes of a named skill's SKILL.md sent at most; the rest is the model's to read. */
export const MENTIONED_SKILL_MAX_BYTES = 32 * 1024;

/** The skills `prompt` names as `$name`, each once, in the order named. */
export function mentionedSkills(prompt: string, skills: readonly Skill[]): Skill[] {
  const named: Skill[] = [];
  for (const match of prompt.matchAll(/(?<![\w$])\$([a-z0-9][a-z0-9-]*)(?![\w-])/g)) {
    const name = match[1] ?? '';
    const matching = skills.filter((skill) => skill.name === name);
    const only = matching.length === 1 ? matching[0] : undefined;
    if (only && !named.includes(only)) named.push(only);
  }
  return named;
}

/** The message telling the model to follow `skill`, with its SKILL.md; undefined where it cannot be read now. */
export async function mentionItem(skill: Skill): Promise<AnyInputItem | undefined> {
  const data = await fs.readFile(skill.file).catch(() => undefined);
  if (data === undefined) return undefined;
  const cut = data.length > MENTIONED_SKILL_MAX_BYTES;
  let end = Math.min(data.length, MENTIONED_SKILL_MAX_BYTES);
  // Back off continuation bytes so the cut falls on a character's first byte.
  while (cut && end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
  const text = data.subarray(0, end).toString('utf8').replace(/\s+$/, '');
  const rest = cut ? `\n[Cut at ${MENTIONED_SKILL_MAX_BYTES / 1024} KiB: read the rest from the file.]` : '';
  const folder = skill.scope === 'user' ? skill.folder : path.posix.dirname(skill.label);
  return userMessage(
    `${NAMED_SKILL_OPEN}${skill.name}" path="${skill.label}">\n` +
      `The user named this skill for the task: follow its instructions below, and read the files they point to in ${folder}/ as you need them.\n\n` +
      `${text}${rest}\n</skill>`,
  );
}

/** The messages for the skills `prompt` names, in the order named. */
export async function mentionItems(prompt: string, skills: readonly Skill[]): Promise<AnyInputItem[]> {
  const items = await Promise.all(mentionedSkills(prompt, skills).map(mentionItem));
  return items.filter((item): item is AnyInputItem => item !== undefined);
}
