import type { ScenarioFile } from '../../../src/server';

// One long task for the tests of long sessions (the agent's and the panel's): a dozen reads of about 700
// tokens each, then a read too large for a small window, against the real server with that window.

export const LONG_READS = 12;
export const LONG_PROMPT = 'read every part';
export const HUGE_PROMPT = 'read the huge one';

/** About 700 tokens each. */
const fileText = (n: number, lines = 36) =>
  Array.from({ length: lines }, (_, i) => `export const value${n}_${i} = compute(${n}, ${i}); // part ${n}`).join('\n');

export const longFiles: Record<string, string> = Object.fromEntries([
  ...Array.from({ length: LONG_READS }, (_, i): [string, string] => [`src/part${i + 1}.ts`, fileText(i + 1)]),
  ['src/huge.ts', fileText(99, 110)],
]);

const readSteps = (paths: string[]) =>
  paths.map((path) => ({ output: [{ type: 'function_call' as const, name: 'read_file', arguments: { path } }] }));

export const longScenario: ScenarioFile = {
  scenarios: [
    {
      name: 'long',
      match: `^${LONG_PROMPT}$`,
      steps: [
        ...readSteps(Array.from({ length: LONG_READS }, (_, i) => `src/part${i + 1}.ts`)),
        { output: [{ type: 'message', text: 'Read every part.' }] },
      ],
    },
    {
      name: 'huge',
      match: `^${HUGE_PROMPT}$`,
      steps: [
        ...readSteps(['src/part1.ts', 'src/part2.ts', 'src/huge.ts']),
        { output: [{ type: 'message', text: 'Read the huge one.' }] },
      ],
    },
  ],
};
