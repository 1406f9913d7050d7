import demoScenarios from './scenarios/demo.json';
import reviewScenarios from './scenarios/review.json';
import everydayScenarios from './scenarios/default.json';
import { type ScenarioFile, parseScenarioFile } from './scenarioFile';

// The offline agent's own scenarios (docs/backend.md, "The default scenarios"): every prompt a new user is shown
// (the welcome's, the README's) answered from demo/workspace's files (demo.json), then everyday prompts (find,
// search, read, replace, run, list tasks) whose captures become the tools' arguments (default.json). The JSON is
// bundled, never read from disk at run time, and checked with the same strict schema as any --scenario file.

/**
 * The files in load order: a review's first (its prompt carries a diff, whose lines could match any other
 * pattern), then the demo's, so that its prompts win over the everyday patterns.
 */
export const DEFAULT_SCENARIO_FILES: readonly { source: string; json: unknown }[] = [
  { source: 'src/server/scenarios/review.json', json: reviewScenarios },
  { source: 'src/server/scenarios/demo.json', json: demoScenarios },
  { source: 'src/server/scenarios/default.json', json: everydayScenarios },
];

/** The default scenarios, meant to be loaded after any `--scenario` files so that those win. */
export const DEFAULT_SCENARIOS: ScenarioFile = {
  scenarios: DEFAULT_SCENARIO_FILES.flatMap(
    ({ source, json }) => parseScenarioFile(JSON.stringify(json), source).scenarios,
  ),
};
