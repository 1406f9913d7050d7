import { loadScenarioFile, startServer } from '../../../src/server';
import type { ObservedOptions } from './serverProcess';

// The long mode's server process (serverProcess.ts starts it): the bundled server from source, printing its
// base URL, then every response's TurnRecord as one JSON line — the tokens it rendered, the context it
// answered from, the compaction it made — which the admin endpoint only sums. Stops on SIGTERM.

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ObservedOptions & { token: string };
  const server = await startServer({
    scenarios: [loadScenarioFile(options.scenarioFile)],
    tps: options.tps,
    prefillUsPerToken: options.prefillUsPerToken,
    contextWindow: options.contextWindow,
    token: options.token,
    observe: (record) => process.stdout.write(`${JSON.stringify(record)}\n`),
  });
  process.stdout.write(`${server.url}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
