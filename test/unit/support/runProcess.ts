import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** The repository root, for tests that run what the build produced. */
export const repoRoot = path.resolve(__dirname, '../../..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `file` with `args` from the repository root (or `options.cwd`), feeding `stdin`; resolves whatever the
 * exit code. `env` replaces the environment (default: this process's).
 */
export function runProcess(
  file: string,
  args: string[],
  stdin = '',
  env?: NodeJS.ProcessEnv,
  options: { cwd?: string } = {},
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd ?? repoRoot, ...(env ? { env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
