import {
  type ApprovalMode,
  type ModelOptions,
  type PromptWithParts,
  Transcript,
  createAgentSession,
  findProjectInstructions,
  newSessionId,
  policyFor,
} from '../../agent';
import type { SandboxPolicy } from '../../sandbox';
import { BackgroundCommands, ReadLedger, type ToolRegistry } from '../../tools';
import type { NodeWorkspace } from '../../workspace/node/nodeWorkspace';
import { commandShellName } from '../../workspace/shared/userShell';
import { type CliIo, ExitCode } from '../cliIo';
import { t } from '../cliL10n';
import { skillsReader } from './skillsReport';
import { type ExecAgents, agentSpecOf } from './execAgent';

// `loopwire exec --dump-request`: the first generating request of the task the other flags describe, printed
// as the JSON body that would go over HTTP (the whole context, `stream: true`), and nothing else on stdout.
// The agent is built exactly as exec builds it — its instructions, tools, fields, project instructions and
// environment item — on a transport that sends nothing (src/agent/transport/requestDump.ts): no endpoint is contacted,
// no key is needed, no session is written. A WebSocket turn carries the same fields, chained from its warm-up.

export const dumpRequestUsage = `  --dump-request         ${t(
  "print the first request's body as it would go over HTTP (JSON, on stdout) and\n                         exit 0, sending nothing: what the model would be told",
)}
`;

export interface DumpSetup {
  endpoint: string;
  model: string;
  modelOptions: ModelOptions;
  headers: Record<string, string>;
  context: { window?: number | undefined; compactAt?: number | undefined };
  workspace: NodeWorkspace;
  approve: ApprovalMode;
  /** The sandbox commands would run in (execSandbox.ts's sandboxReader); absent where the machine has none. */
  sandbox: (() => SandboxPolicy | undefined) | undefined;
  prompt: string | PromptWithParts;
  /** The tools offered, when a prompt file narrows them; absent: the built-in ones. */
  registry?: ToolRegistry;
  /** --agent's custom agent, and those a subagent may be started as. */
  agents?: ExecAgents;
}

/** Prints the body and returns 0; 1 if the agent stopped before it built a request. */
export async function dumpRequest(setup: DumpSetup, io: CliIo): Promise<ExitCode> {
  let body: Record<string, unknown> | undefined;
  const session = createAgentSession({
    endpoint: setup.endpoint === 'embedded' ? 'http://127.0.0.1/v1' : setup.endpoint,
    transport: 'http',
    headers: setup.headers,
    emit: () => undefined,
    dumpRequest: (dumped) => (body = dumped),
  });
  const { workspace } = setup;
  // As exec reads them: each SKILL.md that cannot be used is said on stderr, stdout keeping the body alone.
  const skills = skillsReader([workspace.root], (line) => io.stderr(line));
  const skillsFound = (await skills()).skills.length > 0;
  const agent = session.agent({
    model: setup.model,
    modelOptions: setup.modelOptions,
    transcript: Transcript.create({
      id: newSessionId(),
      createdAt: new Date().toISOString(),
      workspace: workspace.root,
      model: setup.model,
    }),
    // As `loopwire exec` runs it: with sessions, so the request offers what reaches them (write_stdin).
    tools: { workspace, reads: new ReadLedger(), sessions: new BackgroundCommands() },
    ...(setup.registry ? { registry: setup.registry } : {}),
    // Nothing runs: the mode and the sandbox are what the environment item and exec_command's parameters say.
    approvals: policyFor(setup.approve, () => Promise.resolve(false), undefined, setup.sandbox),
    context: setup.context,
    projectInstructions: () => findProjectInstructions([workspace.root]),
    skills,
    skillsFound,
    environment: () => ({ cwd: workspace.root, shell: commandShellName(), folders: [workspace.root] }),
    // As exec runs it: the model may start subagents.
    subagents: {},
    ...agentSpecOf(setup.agents),
    emit: () => undefined,
  });
  const done = await agent.run(setup.prompt);
  session.close(false);
  if (body === undefined) {
    io.stderr(`loopwire exec: no request was built: ${done.reason}\n`);
    return ExitCode.failed;
  }
  io.stdout(`${JSON.stringify(body)}\n`);
  return ExitCode.ok;
}
