// The long chaos run: `npm run chaos -- --runs 1000 [--from SEED] [--keep]`. Prints faults by kind, tasks
// completed, files verified and every loss (the goal is none); exits 1 on any loss. `--keep` leaves each
// run's folder (workspace, transcript, the server's wire log) to look at a failing seed.
import { parseArgs } from 'node:util';
import { type ChaosOutcome, chaosRun, summarize } from './chaosRun';

const { values } = parseArgs({
  options: { runs: { type: 'string' }, from: { type: 'string' }, keep: { type: 'boolean' } },
});
const runs = Number(values.runs ?? 1000);
const from = Number(values.from ?? 1);

async function main() {
  const outcomes: ChaosOutcome[] = [];
  const started = Date.now();
  for (let seed = from; seed < from + runs; seed++) {
    const outcome = await chaosRun(seed, values.keep === true);
    outcomes.push(outcome);
    for (const loss of outcome.losses) process.stderr.write(`  seed ${seed}: ${loss}\n`);
    if (outcomes.length % 50 === 0) process.stderr.write(`  ${outcomes.length} runs\n`);
  }
  console.log(summarize(outcomes));
  console.log(`wall time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (outcomes.some((o) => o.losses.length > 0)) process.exitCode = 1;
}

if (require.main === module) void main();
