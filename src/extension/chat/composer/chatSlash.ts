import { t } from '@vscode/l10n';
import {
  type FoundPrompts,
  INIT_PROMPT,
  type Skill,
  type SlashCommand,
  fillPrompt,
  parseSlash,
  type CustomAgent,
  promptAgent,
  promptModelId,
  slashCommands,
} from '../../../agent';
import type { SlashEntry } from '../../../protocol/slashMenu';
import type { PromptChoices } from './promptTurn';

// The composer's slash commands on the host side: the `/` menu's list (the core's slashCommands, as
// `loopwire exec` reads it) and what a sent `/name args` does. A prompt file's body, its `${input:…}` filled
// by the core's fillPrompt, is the prompt, with its `model`, `tools` and `agent` (promptAgent.ts) for that
// prompt only (promptTurn.ts);
// `/skill args` names the skill as `$skill`; `/plan` is plan mode for its prompt, `/init` asks for an
// AGENTS.md; `/new`, `/compact`, `/skills`, `/help` and `/review` act here and send nothing. What cannot run (an unknown
// command, a missing input) is said in the chat and its text goes back to the composer: nothing is lost.

/** What the window gives the commands. */
export interface SlashPort {
  /** The workspace's prompt files and the skills the window may use now (those of a trusted workspace). */
  find(): Promise<{ prompts: FoundPrompts; skills: readonly Skill[] }>;
  /** The folder `${workspaceFolder}` names; undefined without one. */
  root(): string | undefined;
  /** `/review`: runs Loopwire: Review Changes; false where this build has no such command. */
  review(args: string): Promise<boolean>;
  /** The custom agents a prompt file's `agent` may name (those the agent picker lists); absent: none. */
  agents?(): Promise<readonly CustomAgent[]>;
}

/** What the commands ask of the chat. */
export interface SlashActions {
  newChat(): void;
  notice(level: 'info' | 'warning' | 'error', text: string): void;
  /** Puts `text` back in the composer (a command that could not run). */
  giveBack(text: string): void;
  /** `/compact`: compacts the chat's conversation now, saying so in the chat; false when it did not. */
  compact(): Promise<boolean>;
}

/** A sent prompt once its command is read: the prompt to send and its own choices, or handled here. */
export type SlashOutcome = { prompt: string; choices?: PromptChoices } | { handled: 'done' | 'refused' };

export class ChatSlash {
  /** The skills last found, a skill named as a command included (`/skills` lists them all). */
  private skills: readonly Skill[] = [];

  constructor(
    private readonly port: SlashPort | undefined,
    private readonly actions: SlashActions,
  ) {}

  /** The `/` menu: every command with its description, in slashCommands' order. */
  async entries(): Promise<SlashEntry[]> {
    return (await this.commands()).map((command) => ({
      kind: command.kind,
      name: command.name,
      description: command.description,
      ...(command.kind === 'prompt' && command.argumentHint ? { hint: command.argumentHint } : {}),
    }));
  }

  /** `text` as sent: plain text (undefined: sent as it is), `//text`, or a command. */
  async expand(text: string): Promise<SlashOutcome | undefined> {
    const slash = parseSlash(text);
    if (slash === undefined) return undefined;
    if ('literal' in slash) return { prompt: slash.literal };
    const commands = await this.commands();
    const command = commands.find((each) => each.name === slash.name);
    if (command === undefined) {
      const names = commands.map((each) => `/${each.name}`).join(', ');
      return this.refuse(
        text,
        t('/{0} is no command here. The commands are {1}; //text sends /text.', slash.name, names),
      );
    }
    if (command.kind === 'skill') return { prompt: `$${command.name} ${slash.args}`.trim() };
    if (command.kind === 'prompt') return this.promptFile(command, slash.args, text);
    return this.builtin(command.name, slash.args, text, commands);
  }

  private async commands(): Promise<SlashCommand[]> {
    const found = await this.port?.find();
    this.skills = found?.skills ?? [];
    return slashCommands(found?.prompts.prompts ?? [], this.skills);
  }

  private async promptFile(
    command: Extract<SlashCommand, { kind: 'prompt' }>,
    args: string,
    text: string,
  ): Promise<SlashOutcome> {
    const { prompt } = command;
    const filled = fillPrompt(prompt.body, args, this.port?.root() ?? '');
    if ('missing' in filled) {
      const first = filled.missing[0]?.name ?? '';
      const each = filled.missing.map((input) =>
        input.placeholder ? `${input.name} (${input.placeholder})` : input.name,
      );
      return this.refuse(
        text,
        t(
          '/{0} ({1}) needs a value for {2}: give it as {3}=VALUE after the name, or as words after it for the first one missing.',
          command.name,
          prompt.label,
          each.join(', '),
          first,
        ),
      );
    }
    const agent =
      prompt.agent === undefined ? undefined : promptAgent(prompt.agent, (await this.port?.agents?.()) ?? []);
    if (agent && 'problem' in agent)
      return this.refuse(text, t('/{0} ({1}): {2}.', command.name, prompt.label, agent.problem));
    const choices: PromptChoices = {
      ...(prompt.model === undefined ? {} : { model: promptModelId(prompt.model) }),
      ...(prompt.tools === undefined ? {} : { tools: prompt.tools }),
      ...(agent === undefined ? {} : 'custom' in agent ? { agent: agent.custom } : { agent: null }),
      ...(agent && 'builtin' in agent && agent.mode === 'plan' ? { plan: true } : {}),
      ...(agent && 'builtin' in agent && agent.mode === 'read-only' ? { readOnly: true } : {}),
    };
    return { prompt: filled.text, choices };
  }

  private async builtin(name: string, args: string, text: string, commands: SlashCommand[]): Promise<SlashOutcome> {
    switch (name) {
      case 'plan':
        if (args === '')
          return this.refuse(text, t('/plan plans a prompt: give it after the name (/plan add a --dry-run flag).'));
        return { prompt: args, choices: { plan: true } };
      case 'init':
        return { prompt: args === '' ? INIT_PROMPT : `${INIT_PROMPT}\n\n${args}` };
      case 'new':
        this.actions.newChat();
        return { handled: 'done' };
      case 'skills':
        this.actions.notice('info', skillsText(this.skills));
        return { handled: 'done' };
      case 'review':
        if (await this.port?.review(args)) return { handled: 'done' };
        return this.refuse(
          text,
          t(
            '/review comes from the command Loopwire: Review Changes (loopwire.reviewChanges), which this build does not have yet.',
          ),
        );
      case 'compact':
        return { handled: (await this.actions.compact()) ? 'done' : 'refused' };
      default:
        this.actions.notice('info', helpText(commands));
        return { handled: 'done' };
    }
  }

  private refuse(text: string, message: string): SlashOutcome {
    this.actions.notice('error', message);
    this.actions.giveBack(text);
    return { handled: 'refused' };
  }
}

/** `/skills`: each skill with its description, or where skills are looked for. */
function skillsText(skills: readonly Skill[]): string {
  if (skills.length === 0)
    return t('No skills found (.agents/skills, .github/skills, .claude/skills, or the same under your home folder).');
  const lines = skills.map((skill) => `$${skill.name}: ${skill.description}`);
  return [t('Skills (name one as $name in a prompt):'), ...lines].join('\n');
}

/** `/help`: every command with its description. */
function helpText(commands: readonly SlashCommand[]): string {
  const lines = commands.map((command) => `/${command.name}: ${command.description}`);
  return [t('Slash commands (//text sends /text):'), ...lines].join('\n');
}
