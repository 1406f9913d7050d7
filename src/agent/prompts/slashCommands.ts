import type { Skill } from '../skills/skillDiscovery';
import type { PromptFile } from './promptDiscovery';

// The slash commands a user can type: Loopwire's own (built-ins), then the workspace's prompt files, then the
// skills, each with its description: what the panel's `/` menu lists and what `loopwire exec "/name args"`
// runs. A name is taken once, in that order: a prompt file named as a built-in, or a skill named as either, is
// not a command (the skill is still `$name`). `//text` is the text `/text`, not a command.

/** Loopwire's own commands. */
export const BUILTIN_COMMANDS = [
  { name: 'new', description: 'Start a new chat' },
  { name: 'compact', description: 'Compact the conversation now, to free room in the context window' },
  { name: 'plan', description: 'Plan mode for this prompt: read and plan, change nothing' },
  { name: 'review', description: 'Review the current changes and report findings by file and line' },
  { name: 'init', description: 'Write an AGENTS.md for this repository from what the agent finds in it' },
  { name: 'skills', description: 'List the skills found' },
  { name: 'help', description: 'List the slash commands' },
] as const;

export type BuiltinName = (typeof BUILTIN_COMMANDS)[number]['name'];

export type SlashCommand =
  | { kind: 'builtin'; name: BuiltinName; description: string }
  | { kind: 'prompt'; name: string; description: string; argumentHint?: string; prompt: PromptFile }
  | { kind: 'skill'; name: string; description: string; skill: Skill };

/** Every command: the built-ins, then `prompts`, then `skills`, each name once. */
export function slashCommands(prompts: readonly PromptFile[], skills: readonly Skill[]): SlashCommand[] {
  const commands: SlashCommand[] = BUILTIN_COMMANDS.map((command) => ({ kind: 'builtin', ...command }));
  const taken = new Set<string>(commands.map((command) => command.name));
  for (const prompt of prompts) {
    if (taken.has(prompt.name)) continue;
    taken.add(prompt.name);
    const hint = prompt.argumentHint === undefined ? {} : { argumentHint: prompt.argumentHint };
    commands.push({ kind: 'prompt', name: prompt.name, description: prompt.description, ...hint, prompt });
  }
  for (const skill of skills) {
    if (taken.has(skill.name)) continue;
    taken.add(skill.name);
    commands.push({ kind: 'skill', name: skill.name, description: skill.description, skill });
  }
  return commands;
}

/** A prompt as typed: a command and what follows its name, the text of a `//` prompt, or plain text (undefined). */
export function parseSlash(text: string): { name: string; args: string } | { literal: string } | undefined {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('//')) return { literal: trimmed.slice(1) };
  const match = /^\/([A-Za-z0-9][\w.-]*)(?:\s+([\s\S]*))?$/.exec(trimmed.trimEnd());
  return match ? { name: match[1] ?? '', args: (match[2] ?? '').trim() } : undefined;
}
