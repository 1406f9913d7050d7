import * as os from 'node:os';
import { type FoundSkills, findSkills } from '../../agent';
import { t } from '../cliL10n';
import { terminalText } from './terminalText';

// `loopwire exec` (`--dump-request` included) finds the skills of its workspace and the user's home folder
// (src/agent/skills) and says on stderr each SKILL.md it could not use, with the file and why, once a run:
// a broken skill is the team's to fix, and never stops the task.

/** A reader of the skills of `folders` and the user's (`home`: `os.homedir()`, which follows HOME) that says each problem once. */
export function skillsReader(
  folders: readonly string[],
  say: (text: string) => void,
  home: string = os.homedir(),
): () => Promise<FoundSkills> {
  const said = new Set<string>();
  return async () => {
    const found = await findSkills(folders, home);
    for (const { file, problem } of found.problems) {
      const line = terminalText(t('(skill not used: {0}: {1})', file, problem));
      if (said.has(line)) continue;
      said.add(line);
      say(`${line}\n`);
    }
    return found;
  };
}
