// `loopwire tool NAME [ARGS]`: one tool call through the Node adapter, as the model would make it — for
// trying the tools on a real folder and for checks outside this repository.
import { ReadLedger, TOOL_NAMES, isFreeformInput, runToolCall } from '../tools';
import { NodeWorkspace } from '../workspace/node/nodeWorkspace';
import { type CliIo, ExitCode, errorMessage, parseFlags } from './cliIo';
import { t } from './cliL10n';

export const toolUsage = `${t('usage: {0}', 'loopwire tool NAME [ARGS|-] [--cwd DIR] [--no-ripgrep]')}

${t("Runs one of the agent's tools on the folder DIR (default: the current directory) and prints its output.\nARGS is the call's JSON arguments (absent: {}; '-': read from standard input).\nFor apply_patch, ARGS may also be the patch itself (freeform input).")}

  --cwd DIR       ${t('the workspace folder')}
  --no-ripgrep    ${t('use the JavaScript text search even where rg is on PATH')}

${t('Tools: {0}', TOOL_NAMES.join(', '))}
${t('Exit status: 0 when the tool answers ok, 1 when it refuses or fails, 2 on bad usage.')}
`;

const FLAGS = {
  allowPositionals: true,
  options: { cwd: { type: 'string' }, 'no-ripgrep': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
} as const;

export async function toolCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseFlags(io, { name: 'loopwire tool', usage: toolUsage }, { args: argv, ...FLAGS });
  if (typeof parsed === 'number') return parsed;
  const [name, given, ...extra] = parsed.positionals;
  if (name === undefined || extra.length > 0) {
    io.stderr(`loopwire tool: ${name === undefined ? 'name a tool' : 'too many arguments'}\n\n${toolUsage}`);
    return ExitCode.usage;
  }
  const text = given === undefined ? '{}' : given === '-' ? await io.readStdin() : given;
  const args = text.trim() === '' ? '{}' : text;
  let workspace: NodeWorkspace;
  try {
    workspace = await NodeWorkspace.open(
      parsed.values.cwd ?? process.cwd(),
      parsed.values['no-ripgrep'] ? { ripgrep: null } : {},
    );
  } catch (error) {
    io.stderr(`loopwire tool: ${errorMessage(error)}\n`);
    return ExitCode.usage;
  }
  const freeform = isFreeformInput(name, args);
  const result = await runToolCall(
    freeform ? { kind: 'custom', name, input: args } : { kind: 'function', name, arguments: args },
    { workspace, reads: new ReadLedger() },
  );
  (result.ok ? io.stdout : io.stderr)(`${result.output}\n`);
  return result.ok ? ExitCode.ok : ExitCode.failed;
}
