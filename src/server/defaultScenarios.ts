import defaultScenarios from './scenarios/default.json';
import { type ScenarioFile, parseScenarioFile } from './scenarioFile';

// The offline agent's own scenarios (docs/backend.md, "The default scenarios"): the demo task on
// demo/workspace and everyday prompts (find, search, read, replace, run, list tasks) whose captures become the
// tools' arguments. The JSON is bundled, never read from disk at run time, and checked with the same strict
// schema as any --scenario file.

/** The default scenarios, meant to be loaded after any `--scenario` files so that those win. */
export const DEFAULT_SCENARIOS: ScenarioFile = parseScenarioFile(
  JSON.stringify(defaultScenarios),
  'src/server/scenarios/default.json',
);
