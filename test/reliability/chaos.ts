// The long chaos run: `npm run chaos -- --runs 1000 [--from SEED]`. Prints faults by kind, tasks
// completed, files verified and every loss (the goal is none); exits 1 on any loss.
import { parseArgs } from 'node:util';
import { type ChaosOutcome, chaosRun, summarize } from './chaosRun';

const { values } = parseArgs({ options: { runs: { type: 'string' }, from: { type: 'string' } } });
const runs = Number(values.runs ?? 1000);
const from = Number(values.from ?? 1);

async function main() {
  const outcomes: ChaosOutcome[] = [];
  for (let seed = from; seed < from + runs; seed++) {
    outcomes.push(await chaosRun(seed));
    if (outcomes.length % 50 === 0) process.stderr.write(`  ${outcomes.length} runs\n`);
  }
  console.log(summarize(outcomes));
  if (outcomes.some((o) => o.losses.length > 0)) process.exitCode = 1;
}

if (require.main === module) void main();
