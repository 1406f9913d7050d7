import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScenarioFile } from '../../../src/server';

// The benchmark's workload: a generated workspace of code-like files, and scenarios that make the agent
// read and search it for N tool calls (file reads of a few KB each, so the history grows as in real work),
// plus, for the scaling sweep, scenarios that first grow the history to a given size with large reads, and
// for the long mode a task of whole-module reads that outgrows a small context window several times.

/** Bytes of one generated module: a read of it is a realistic tool output of a few KB. */
export const MODULE_BYTES = 10 * 1024;
const MODULES = 60;

function moduleText(index: number): string {
  const lines: string[] = [`// module ${index}: generated for the benchmark`];
  for (let i = 0; Buffer.byteLength(lines.join('\n')) < MODULE_BYTES; i++) {
    lines.push(
      i % 8 === 0
        ? `export function handler${index}_${i}(request: Request, context: Context): Response {`
        : i % 8 === 7
          ? '}'
          : `  const value${i} = context.lookup('key_${index}_${i}') ?? request.field${i} + ${i * index};`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A big text file of about `bytes`, read in 100,000-character ranges by the scaling scenarios. */
function bigText(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `record ${i}: the quick brown fox jumps over the lazy dog, value=${(i * 7919) % 100_003}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the workspace: modules, and the big file the scaling sweep reads. */
export function writeWorkspace(dir: string): void {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
  for (let i = 0; i < MODULES; i++) fs.writeFileSync(path.join(dir, 'src', `module_${i}.ts`), moduleText(i));
  fs.writeFileSync(path.join(dir, 'big.txt'), bigText(900_000));
}

type Step = ScenarioFile['scenarios'][number]['steps'][number];

const call = (name: string, args: Record<string, unknown>): Step => ({
  output: [{ type: 'function_call', name, arguments: args }],
});

/** N tool calls: mostly whole-module reads, every third a search, then a short answer. */
function taskSteps(toolCalls: number): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < toolCalls; i++)
    steps.push(
      i % 3 === 2
        ? call('search_text', { query: `key_${i}_1'`, max_results: 20 })
        : call('read_file', { path: `src/module_${i % MODULES}.ts` }),
    );
  steps.push({
    output: [
      {
        type: 'message',
        text: `I read ${Math.ceil((toolCalls * 2) / 3)} modules and searched ${Math.floor(toolCalls / 3)} times; the handlers follow one pattern: each looks its keys up in the context and falls back to the request's fields.`,
      },
    ],
  });
  return steps;
}

/** Lines of big.txt per read: about 90,000 characters, under read_file's 100,000-character answer cap. */
const LINES_PER_READ = 1000;
/** Tokens of context before any read: the instructions, the tools and the prompt. */
const BASE_TOKENS = 1250;
/** big.txt's lines are about 90 characters, about 20 tokens each with o200k_base. */
const TOKENS_PER_LINE = 20;

/** Grows the history to about `tokens` with reads of big.txt, then makes `measured` small calls. */
function scalingSteps(tokens: number, measured: number): Step[] {
  const steps: Step[] = [];
  const lines = Math.max(0, Math.round((tokens - BASE_TOKENS) / TOKENS_PER_LINE));
  for (let start = 0; start < lines; start += LINES_PER_READ) {
    const end = Math.min(lines, start + LINES_PER_READ);
    steps.push(call('read_file', { path: 'big.txt', start_line: start + 1, end_line: end }));
  }
  for (let i = 0; i < measured; i++)
    steps.push(call('search_text', { query: `value=${i}7\\b`, is_regex: true, max_results: 5 }));
  steps.push({ output: [{ type: 'message', text: 'Done.' }] });
  return steps;
}

export const taskPrompt = (toolCalls: number) => `bench task with ${toolCalls} tool calls`;
export const longPrompt = (reads: number) => `bench long task with ${reads} reads`;

/** The long mode's task: `reads` whole-module reads (a different module each, ~3k tokens), then an answer. */
export function longScenario(reads: number): ScenarioFile {
  const steps: Step[] = Array.from({ length: reads }, (_, i) =>
    call('read_file', { path: `src/module_${i % MODULES}.ts` }),
  );
  steps.push({ output: [{ type: 'message', text: `I read ${reads} modules; they follow one pattern.` }] });
  return { scenarios: [{ name: `long-${reads}`, match: `^${longPrompt(reads)}$`, steps }] };
}

export const scalingPrompt = (tokens: number) => `bench scaling at ${tokens} tokens`;

/** Every scenario the benchmark uses, in one file for the server. */
export function benchScenarios(toolCalls: readonly number[], sizes: readonly number[], measured: number): ScenarioFile {
  return {
    scenarios: [
      ...toolCalls.map((n) => ({ name: `task-${n}`, match: `^${taskPrompt(n)}$`, steps: taskSteps(n) })),
      ...sizes.map((tokens) => ({
        name: `scaling-${tokens}`,
        match: `^${scalingPrompt(tokens)}$`,
        steps: scalingSteps(tokens, measured),
      })),
    ],
  };
}
