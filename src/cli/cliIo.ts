import { type ParseArgsConfig, parseArgs } from 'node:util';
import { version } from '../../package.json';

/** Where a command reads and writes; the real process in the bins, buffers in tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
}

/** Exit codes shared by both bins: 0 done, 1 the work failed, 2 bad usage. */
export const ExitCode = { ok: 0, failed: 1, usage: 2 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const VERSION: string = version;

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** What a command's flags parse to. */
export type ParsedFlags<T extends ParseArgsConfig> = ReturnType<typeof parseArgs<T>>;

/**
 * A command's flags (with `-h`/`--help` added), or the exit code once it has printed its usage: for
 * `--help` (0), or after saying why the flags are wrong (2).
 */
export function parseFlags<T extends ParseArgsConfig>(
  io: CliIo,
  command: { name: string; usage: string },
  config: T,
): ParsedFlags<T> | ExitCode {
  let parsed: ParsedFlags<T>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    io.stderr(`${command.name}: ${errorMessage(error)}\n\n${command.usage}`);
    return ExitCode.usage;
  }
  if ((parsed.values as { help?: unknown }).help === true) {
    io.stdout(command.usage);
    return ExitCode.ok;
  }
  return parsed;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a bin's main and sets the exit code; an unexpected error is reported on one line, never a stack dump. */
export function runMain(main: (argv: string[], io: CliIo) => ExitCode | Promise<ExitCode>): void {
  const io = processIo();
  Promise.resolve()
    .then(() => main(process.argv.slice(2), io))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        io.stderr(`${errorMessage(error)}\n`);
        process.exitCode = ExitCode.failed;
      },
    );
}
