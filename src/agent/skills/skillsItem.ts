import { type AnyInputItem, SKILLS_HEADING, userMessageText } from '../../protocol';
import type { FoundSkills, Skill } from './skillDiscovery';

// The skills the model may use, as one user message after the project instructions (projectInstructions.ts),
// in the transcript: a chained turn inherits it with the rest, and a compaction keeps it. Each skill by its
// name, its description and its SKILL.md's path — the model reads the rest when a task needs it (the format's
// progressive disclosure). Read again at each task's start: a changed list goes as a new message saying it
// replaces the earlier one, which stays where it was (history is never rewritten: the chain and the socket's
// cache rest on it). Skills of a folder below the workspace folder come as their own message when the agent
// first works there (nestedSkills.ts), as a nested AGENTS.md does.

const OPEN = '<SKILLS>';
const SCOPE_OPEN = '<SKILLS scope="';
const HOW =
  'Each skill is a folder of instructions (SKILL.md) for one kind of task, with any scripts, references and assets it needs. When a task matches a skill’s description, or the user names it as `$name`, read its SKILL.md and follow it.';
const REPLACES = 'The skills changed: this list replaces the one given earlier in this conversation.';
const REMOVED = 'The skills listed earlier in this conversation are gone: do not use them.';

/**
 * The most the list's lines may weigh (characters). A repository may hold 2,000 skill folders a root, each with
 * 1,024 characters of description: listed whole, that is megabytes in every request, past the context window,
 * and no task could run there. The project instructions have 32 KiB; the skills twice that, the rest counted.
 */
export const SKILLS_LIST_MAX_CHARS = 64 * 1024;

/** The list's lines: `- name: description (file: path)`, as many as fit, then how many did not. */
function lines(skills: readonly Skill[]): string {
  const kept: string[] = [];
  let size = 0;
  for (const skill of skills) {
    const line = `- ${skill.name}: ${skill.description} (file: ${skill.label})`;
    if (size + line.length + 1 > SKILLS_LIST_MAX_CHARS) break;
    kept.push(line);
    size += line.length + 1;
  }
  const left = skills.length - kept.length;
  if (left > 0) kept.push(`(${left} more ${left === 1 ? 'skill' : 'skills'} not listed: the list is capped.)`);
  return kept.join('\n');
}

/** The message listing `skills` (the workspace folder's and the user's); empty text when there are none. */
export function skillsText(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  return `${SKILLS_HEADING}\n\n${HOW}\n\n${OPEN}\n${lines(skills)}\n</SKILLS>`;
}

/** The message listing the skills of the folder `scope`, below the workspace folder. */
export function nestedSkillsText(scope: string, skills: readonly Skill[]): string {
  return (
    `${SKILLS_HEADING} for ${scope}/\n\nMore skills, found in ${scope}/, for the files under it.\n\n` +
    `${SCOPE_OPEN}${scope}">\n${lines(skills)}\n</SKILLS>`
  );
}

/** Whether `item` is a skills message (the task's list or a folder's). */
export function isSkillsItem(item: AnyInputItem): boolean {
  const text = userMessageText(item);
  return text !== undefined && (text.startsWith(`${SKILLS_HEADING}\n`) || text.startsWith(`${SKILLS_HEADING} for `));
}

/** Whether `item` is a folder's skills message (nestedSkillsText). */
export function isNestedSkillsItem(item: AnyInputItem): boolean {
  return isSkillsItem(item) && (userMessageText(item) ?? '').includes(SCOPE_OPEN);
}

/** The folder a folder's skills message lists the skills of. */
export function nestedSkillsScope(item: AnyInputItem): string {
  const text = userMessageText(item) ?? '';
  const start = text.indexOf(SCOPE_OPEN) + SCOPE_OPEN.length;
  return text.slice(start, text.indexOf('"', start));
}

/**
 * The message this task adds after the project instructions, if any: the list when the transcript has none yet
 * or an earlier one; a note that they are gone when every skill was removed since; nothing when unchanged.
 */
export function skillsUpdate(found: FoundSkills, items: readonly AnyInputItem[]): AnyInputItem | undefined {
  const earlier = items.findLast((item) => isSkillsItem(item) && !isNestedSkillsItem(item));
  const earlierText = earlier ? userMessageText(earlier) : undefined;
  const text = skillsText(found.skills);
  if (text === '') {
    if (earlierText === undefined || earlierText.endsWith(REMOVED)) return undefined;
    return userMessage(`${SKILLS_HEADING}\n\n${REMOVED}`);
  }
  if (earlierText === undefined) return userMessage(text);
  if (earlierText.replace(`\n\n${REPLACES}`, '') === text) return undefined;
  return userMessage(text.replace(`\n\n${OPEN}`, `\n\n${REPLACES}\n\n${OPEN}`));
}

export function userMessage(text: string): AnyInputItem {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}
