import * as fs from 'node:fs/promises';
import * as path from 'node:path';

// The ripgrep VS Code ships, found under its appRoot. Builds lay it out differently (desktop: @vscode/ripgrep,
// unpacked from the asar archive; servers such as code-server: @vscode/ripgrep-universal with one binary per
// platform), so every known layout is looked at, and none is assumed.

const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';

/** Where a ripgrep binary may sit below `appRoot`, most likely first. */
export function ripgrepCandidates(appRoot: string): string[] {
  const platform = `${process.platform}-${process.arch}`;
  const roots = ['node_modules', 'node_modules.asar.unpacked'].map((dir) => path.join(appRoot, dir, '@vscode'));
  return roots.flatMap((root) => [
    path.join(root, 'ripgrep', 'bin', exe),
    path.join(root, 'ripgrep-universal', 'bin', platform, exe),
    path.join(root, 'ripgrep-universal', 'bin', exe),
  ]);
}

/** The first executable candidate, or undefined (the JavaScript search then runs). */
export async function findBundledRipgrep(appRoot: string): Promise<string | undefined> {
  for (const candidate of ripgrepCandidates(appRoot)) {
    try {
      await fs.access(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not this layout.
    }
  }
  return undefined;
}
