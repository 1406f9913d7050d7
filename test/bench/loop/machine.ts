import * as os from 'node:os';
import type { BenchMachine } from './benchTypes';

/** The machine a bench ran on, printed beside its figures (they mean little without it). */
export function thisMachine(): BenchMachine {
  return {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}
