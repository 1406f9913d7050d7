import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScenarioFile } from '../../../src/server';
import { writeWorkspace } from '../loop/workload';

// What the panel bench asks of the extension: the CLI bench's workspace (60 modules of ~10 KB), and one
// task of 50 tool calls as the issue describes it — a sentence, 49 whole-module reads, a 50 KB new file
// written with apply_patch (its live diff streams into the panel), a markdown answer. Each run writes its
// own file (`panel run 3` → src/generated_3.ts), so the task can run again in the same conversation.

export const READS = 49;
/** Bytes of the file the patch adds. */
export const PATCH_BYTES = 50 * 1024;
export const WARM_UP_PROMPT = 'panel warm up';
export const runPrompt = (run: number) => `panel run ${run}`;
/** Text of each run's answer, by which the bench knows the run is over. */
export const doneText = (run: number) => `Panel run ${run} is done`;

function patchInput(): string {
  const lines = ['*** Begin Patch', '*** Add File: src/generated_{{1}}.ts'];
  let bytes = 0;
  for (let i = 0; bytes < PATCH_BYTES; i++) {
    const line =
      i % 6 === 0
        ? `export function route${i}(request: Request, context: Context): Response {`
        : i % 6 === 5
          ? '}'
          : `  const field${i} = context.lookup('generated_${i}') ?? request.value${i} * ${i};`;
    lines.push(`+${line}`);
    bytes += line.length + 1;
  }
  lines.push('*** End Patch');
  return lines.join('\n');
}

const ANSWER = `## Panel run {{1}} is done

I read the ${READS} modules and added **src/generated_{{1}}.ts** (${PATCH_BYTES / 1024} KB):

- every handler looks its keys up in the context first;
- it falls back to the request's fields, multiplied by the handler's index;
- the new routes follow the same pattern.

\`\`\`ts
export function route0(request: Request, context: Context): Response {
  const field1 = context.lookup('generated_1') ?? request.value1 * 1;
}
\`\`\`

Run the tests to check the new file compiles with the rest.`;

export function panelScenarios(): ScenarioFile {
  const read = (i: number) => ({
    type: 'function_call' as const,
    name: 'read_file',
    arguments: { path: `src/module_${i}.ts` },
  });
  return {
    scenarios: [
      {
        name: 'panel-warm-up',
        match: `^${WARM_UP_PROMPT}$`,
        steps: [{ output: [{ type: 'message', text: 'Ready.' }] }],
      },
      {
        name: 'panel-run',
        match: '^panel run (\\d+)$',
        steps: [
          {
            output: [{ type: 'message', text: 'Reading the handlers to see how requests are served.' }, read(0)],
          },
          ...Array.from({ length: READS - 1 }, (_, i) => ({ output: [read(i + 1)] })),
          { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: patchInput() }] },
          { output: [{ type: 'message', text: ANSWER }] },
        ],
      },
    ],
  };
}

const AGENTS_MD = `# Working on the handlers

- Each module under src/ exports one handler; keep them independent of each other.
- A handler looks its keys up in the context before the request's fields.
- Generated files go in src/generated_N.ts and are never edited by hand.
- Run \`npm test\` after a change; the tests must pass before you answer.
`;

/**
 * The user settings the bench's workbench starts with: fifty calls and a write, nothing waits for a person. The
 * user's own setting: a workspace's `loopwire.approval` may make the mode stricter, never looser.
 */
export const PANEL_USER_SETTINGS = { 'loopwire.approval': 'all' } as const;

/**
 * The workspace the workbench opens: the modules, and settings that point Loopwire at the bench's server
 * (`endpoint` undefined: the user's settings name it, since a workspace's endpoint is asked about first).
 */
export function writePanelWorkspace(
  folder: string,
  endpoint: string | undefined,
  more: Record<string, unknown> = {},
): void {
  writeWorkspace(folder);
  // A project's instructions, as most have: each prompt's start looks them up (the bench's prompt-start figures).
  fs.writeFileSync(path.join(folder, 'AGENTS.md'), AGENTS_MD);
  const settings = path.join(folder, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(settings), { recursive: true });
  fs.writeFileSync(
    settings,
    `${JSON.stringify(
      {
        ...(endpoint === undefined ? {} : { 'loopwire.endpoint': endpoint }),
        'loopwire.transport': 'ws',
        ...more,
      },
      null,
      2,
    )}\n`,
  );
}
