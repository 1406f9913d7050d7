import type { ScenarioFile } from '../../../../src/server';

/** A long answer (about `words` tokens), for pacing and interleaving. */
export function storyScenario(words = 200): ScenarioFile {
  return {
    scenarios: [
      {
        name: 'story',
        match: 'tell me a story',
        steps: [
          { output: [{ type: 'message', text: Array.from({ length: words }, (_, i) => `w${i % 10}`).join(' ') }] },
        ],
      },
    ],
  };
}
