import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** The first executable named `name` on PATH, or undefined: nothing is ever downloaded. */
export async function findOnPath(name: string, searchPath = process.env.PATH ?? ''): Promise<string | undefined> {
  const names = process.platform === 'win32' ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const dir of searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    for (const candidate of names.map((file) => path.join(dir, file))) {
      const stat = await fs.stat(candidate).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (
        await fs.access(candidate, constants.X_OK).then(
          () => true,
          () => false,
        )
      )
        return candidate;
    }
  }
  return undefined;
}
