import * as os from 'node:os';
import {
  type FoundPrompts,
  INIT_PROMPT,
  type SlashCommand,
  fillPrompt,
  findPromptFiles,
  findSkills,
  parseSlash,
  prepareReview,
  promptModelId,
  slashCommands,
} from '../../agent';
import { ToolRegistry, toolsNamed } from '../../tools';
import { type CliIo, ExitCode } from '../cliIo';
import { EXEC_NAME, type ExecOptions } from './execOptions';
import { skillsReader } from './skillsReport';
import { terminalText } from './terminalText';

// `loopwire exec "/name args"`: a slash command (src/agent/prompts) turned into the run's prompt before anything
// starts. A prompt file's body, its inputs filled, is the prompt, and its `model` (unless --model says
// otherwise), `tools` (what is offered and what runs) and `agent` (`ask`, `plan`: the mode) hold for that
// prompt, not for those queued after it; `/skill args` names the skill as `$skill` does; `/plan` runs its
// prompt in plan mode (that prompt alone, as in the panel: a prompt queued after it goes in the run's mode),
// `/init` asks for an AGENTS.md, `/review` reviews the changes (src/agent/review) in the read-only mode with
// only the tools that read, for the whole run; `/compact` with --resume compacts the kept session and sends no
// prompt; `/skills` and `/help` print and send nothing.
// An unknown command, a missing input, or a command exec cannot run is bad usage: nothing is sent.

/** The run as a slash command makes it: its options (prompt, model, approvals), and the tools it narrows to. */
export interface SlashRun {
  options: ExecOptions;
  /** The names a prompt file's `tools` gives (VS Code's or ours), for its prompt only; undefined: not narrowed. */
  tools?: string[];
  /** The model id a prompt file's `model` names, for its prompt only (prompts queued after go with the run's). */
  model?: string;
  /** `/plan`: the mode of its prompt alone (execRun.ts's promptChoices); the run's is --approve's. */
  mode?: 'plan';
  /** A prompt file's `agent` as written (promptAgent reads it once the custom agents are found, execMain.ts). */
  agent?: string;
  /** `/review`: the answer's findings are read and printed once the task completes (reviewLines.ts). */
  review?: boolean;
  /** `/compact` with --resume: the kept session's conversation compacted, and no prompt sent (execRun.ts). */
  compact?: boolean;
}

/** The run `options` describe once its prompt's slash command is applied, or the exit code when it ends here. */
export async function execSlash(options: ExecOptions, root: string, io: CliIo): Promise<SlashRun | ExitCode> {
  if (options.prompt === undefined) return { options };
  const slash = parseSlash(options.prompt);
  if (slash === undefined) return { options };
  if ('literal' in slash) return { options: { ...options, prompt: slash.literal } };
  const prompts = await findPromptFiles([root]);
  const say = (line: string) => io.stderr(line);
  for (const { file, problem } of prompts.problems) say(terminalText(`(prompt file not used: ${file}: ${problem})\n`));
  // The skills' problems are said by the agent's own reading of them, once; here they are only looked up.
  const skills = await findSkills([root], os.homedir());
  const commands = slashCommands(prompts.prompts, skills.skills);
  const command = commands.find((each) => each.name === (slash.name === 'prompts' ? 'help' : slash.name));
  if (command === undefined)
    return slashError(
      io,
      `unknown command /${slash.name}: the commands here are ${names(commands)} (/help says what each does; //text sends /text)`,
    );
  if (command.kind === 'skill') return { options: { ...options, prompt: `$${command.name} ${slash.args}`.trim() } };
  if (command.kind === 'prompt') return promptFileRun(options, command, slash.args, root, io);
  return builtinRun(options, command.name, slash.args, { root, io, commands, prompts });
}

/** A prompt file's run: its body filled, its model, its tools. */
function promptFileRun(
  options: ExecOptions,
  command: Extract<SlashCommand, { kind: 'prompt' }>,
  args: string,
  root: string,
  io: CliIo,
): SlashRun | ExitCode {
  const { prompt } = command;
  const filled = fillPrompt(prompt.body, args, root);
  if ('missing' in filled) {
    const each = filled.missing.map((input) =>
      input.placeholder ? `${input.name} (${input.placeholder})` : input.name,
    );
    const first = filled.missing[0]?.name ?? '';
    return slashError(
      io,
      `/${command.name} (${prompt.label}) needs a value for ${each.join(', ')}: give it as ${first}=VALUE after the name, or as words after it for the first one missing`,
    );
  }
  // Its model and tools hold for its prompt alone (execRun.ts's choices); --model wins over its model.
  const model = prompt.model !== undefined && options.flags.model === undefined ? modelId(prompt.model) : undefined;
  return {
    options: { ...options, prompt: filled.text },
    ...(model === undefined ? {} : { model }),
    ...(prompt.tools ? { tools: prompt.tools } : {}),
    ...(prompt.agent === undefined ? {} : { agent: prompt.agent }),
  };
}

interface BuiltinContext {
  root: string;
  io: CliIo;
  commands: SlashCommand[];
  prompts: FoundPrompts;
}

/** A built-in command in exec: a run, or what it prints and its exit code. */
async function builtinRun(
  options: ExecOptions,
  name: string,
  args: string,
  context: BuiltinContext,
): Promise<SlashRun | ExitCode> {
  const { io } = context;
  switch (name) {
    case 'plan':
      if (args === '')
        return slashError(io, '/plan plans a prompt: give it after the name (/plan add a --dry-run flag)');
      return { options: { ...options, prompt: args }, mode: 'plan' };
    case 'init':
      return { options: { ...options, prompt: args === '' ? INIT_PROMPT : `${INIT_PROMPT}\n\n${args}` } };
    case 'help':
      io.stdout(helpText(context.commands));
      return ExitCode.ok;
    case 'skills':
      return printSkills(context.root, io);
    case 'review':
      return reviewRun(options, args, context);
    case 'compact':
      return compactRun(options, args, io);
    default:
      // new (PANEL_ONLY)
      return slashError(
        io,
        `/${name} is not available in ${EXEC_NAME} yet (it is the chat panel's); ${EXEC_NAME} runs /plan, /review, /init, /compact (with --resume), /skills, /help and the prompt files and skills`,
      );
  }
}

/**
 * `/review [target]`: the changes gathered with git, in the prompt; the run in the read-only mode whatever
 * --approve said, offered only the tools that read. A target that names nothing, or no repository: exit 2.
 */
async function reviewRun(
  options: ExecOptions,
  args: string,
  { root, io }: BuiltinContext,
): Promise<SlashRun | ExitCode> {
  const review = await prepareReview(root, args);
  if ('problem' in review) return slashError(io, `/review: ${review.problem}`);
  const prompt = review.prompt;
  return {
    options: { ...options, prompt, approve: 'read-only', approveDefaulted: false },
    tools: review.tools,
    review: true,
  };
}

/** `/compact`: a kept session (--resume) compacted now, so that the next --resume goes on from its summary. */
function compactRun(options: ExecOptions, args: string, io: CliIo): SlashRun | ExitCode {
  if (options.flags.resume === undefined)
    return slashError(
      io,
      '/compact compacts a kept session: give it with --resume FILE (a new run has nothing to compact)',
    );
  if (args !== '') return slashError(io, '/compact takes nothing after it: the whole conversation is compacted');
  return { options: { ...options, prompt: undefined }, compact: true };
}

/** `/skills`: each skill found, with its description and file; what cannot be used, on stderr. */
async function printSkills(root: string, io: CliIo): Promise<ExitCode> {
  const found = await skillsReader([root], (line) => io.stderr(line))();
  if (found.skills.length === 0)
    io.stdout('No skills found (.agents/skills, .github/skills, .claude/skills, or the same under ~).\n');
  for (const skill of found.skills) io.stdout(terminalText(`${skill.name}: ${skill.description} (${skill.label})\n`));
  return ExitCode.ok;
}

/** `/help`: every command with its description, in the menu's order. */
export function helpText(commands: readonly SlashCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 2;
  const line = (command: SlashCommand) => {
    const hint = command.kind === 'prompt' && command.argumentHint ? ` ${command.argumentHint}` : '';
    const from =
      command.kind === 'prompt'
        ? ` (${command.prompt.label})`
        : command.kind === 'skill'
          ? ' (skill)'
          : PANEL_ONLY.has(command.name)
            ? ` (not in ${EXEC_NAME} yet)`
            : '';
    return `  /${command.name.padEnd(width)}${command.description || '(no description)'}${hint ? ` — ${hint.trim()}` : ''}${from}\n`;
  };
  return `The slash commands (${EXEC_NAME} "/name args"; //text sends /text):\n${terminalText(commands.map(line).join(''))}`;
}

/** The built-ins only the chat panel runs for now. */
const PANEL_ONLY: ReadonlySet<string> = new Set(['new']);

const names = (commands: readonly SlashCommand[]) => commands.map((command) => `/${command.name}`).join(', ');

function slashError(io: CliIo, message: string): ExitCode {
  io.stderr(`${EXEC_NAME}: ${message}\n`);
  return ExitCode.usage;
}

/** A prompt file's `model` as a model id (promptModelId: the panel's `/` commands read it alike). */
export function modelId(model: string): string {
  return promptModelId(model);
}

/** `registry` narrowed to what `names` stand for; each name that stands for no tool said once on `say`. */
export function narrowedTools(
  registry: ToolRegistry,
  names: readonly string[],
  say: (line: string) => void,
): ToolRegistry {
  const { tools, unknown } = toolsNamed(names, registry);
  for (const name of unknown) say(terminalText(`(prompt file tools: '${name}' is no tool of Loopwire's: left out)\n`));
  return new ToolRegistry(registry.tools.filter((tool) => tools.has(tool.name)));
}
