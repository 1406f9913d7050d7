import type { ToolContext } from '../../tools';
import type { Transcript } from '../conversation/transcript';
import type { PromptWithParts } from '../conversation/outputItems';
import type { AnyInputItem } from '../../protocol';
import type { FoundSkills } from './skillDiscovery';
import { allowNestedSkills } from './nestedSkills';
import { mentionItems } from './skillMentions';
import { skillsUpdate } from './skillsItem';

// Where skills meet the loop (agentLoop.ts), at a task's start: after the project instructions, the list of
// skills where new or changed; the user's skill folders handed to read_file; and, for the prompt to carry,
// the messages of the skills it names.

/** What the loop needs to bring skills in: their source, the transcript and the tools' context. */
export interface SkillsTaskStart {
  /** Read at each task's start; absent or undefined: no skills. */
  skills?: (() => Promise<FoundSkills | undefined>) | undefined;
  transcript: Transcript;
  tools: ToolContext;
}

/**
 * Appends the skills list to the transcript where it is new or changed, lets read_file read inside the user's
 * skill folders found, and returns the messages that follow `prompt` for the skills it names (`$name`).
 */
export async function skillsBeforePrompt(
  start: SkillsTaskStart,
  prompt: string | PromptWithParts,
): Promise<AnyInputItem[]> {
  const found = await start.skills?.();
  if (!found) return [];
  const update = skillsUpdate(found, start.transcript.items);
  if (update) start.transcript.append(update);
  allowNestedSkills(start.transcript, found.workspace);
  start.tools.skillFolders = found.skills.filter((skill) => skill.scope === 'user').map((skill) => skill.folder);
  return mentionItems(typeof prompt === 'string' ? prompt : prompt.text, found.skills);
}
