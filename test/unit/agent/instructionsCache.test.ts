import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { findProjectInstructions, readProjectInstructions } from '../../../src/agent/instructions/projectInstructions';
import { InstructionsCache } from '../../../src/agent/instructions/instructionsCache';
import { type TempWorkspace, tempWorkspace } from '../support/tempWorkspace';

// A warm Send finds the project instructions again without reading them (instructionsCache.ts): the cache
// answers while nothing it looked at changed, and any change — a file edited, even to the same size, one
// created or deleted, a `.git` that moves the repository's root — is read at the next call.

describe('agent: the project instructions are read again only when a file changed', () => {
  let temp: TempWorkspace;
  let cache: InstructionsCache<Awaited<ReturnType<typeof readProjectInstructions>>>;
  afterEach(() => temp.remove());

  /** Dates every file an hour back: older than the cache's racy window, as a project's files are. */
  async function settle(...rels: string[]): Promise<void> {
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const rel of rels) await fs.utimes(temp.path(rel), hourAgo, hourAgo);
  }

  const find = () => cache.find([temp.path('repo/app')], 32 * 1024, readProjectInstructions);

  beforeEach(async () => {
    cache = new InstructionsCache();
    temp = await tempWorkspace({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/AGENTS.md': 'Root rules.\n',
      'repo/app/AGENTS.md': 'App rules.\n',
    });
    await settle('repo/.git', 'repo/AGENTS.md', 'repo/app/AGENTS.md');
  });

  it('reads once while nothing changed, and hands out copies', async () => {
    const first = await find();
    first.files.length = 0;
    const second = await find();
    assert.equal(cache.reads, 1);
    assert.deepEqual(
      second.files.map((file) => file.label),
      ['../AGENTS.md', 'AGENTS.md'],
    );
    assert.match(second.text, /Root rules\.[\s\S]*App rules\./);
  });

  it('sees an AGENTS.md rewritten to the same size at the same modification time', async () => {
    await find();
    const { mtime } = await fs.stat(temp.path('repo/app/AGENTS.md'));
    await fs.writeFile(temp.path('repo/app/AGENTS.md'), 'New! rules.\n');
    await fs.utimes(temp.path('repo/app/AGENTS.md'), mtime, mtime);
    const found = await find();
    assert.equal(cache.reads, 2);
    assert.match(found.text, /New! rules\./);
  });

  it('sees an AGENTS.md created, then deleted', async () => {
    await find();
    await temp.write('repo/app/.github/copilot-instructions.md', 'Copilot rules.\n');
    assert.match((await find()).text, /Copilot rules\./);
    assert.equal(cache.reads, 2);
    await settle('repo/app/.github/copilot-instructions.md');
    await find();
    await find();
    assert.equal(cache.reads, 3, 'kept once its times are old enough to trust');
    await fs.rm(temp.path('repo/AGENTS.md'));
    const found = await find();
    assert.equal(cache.reads, 4);
    assert.doesNotMatch(found.text, /Root rules/);
    assert.deepEqual(
      found.files.map((file) => file.label),
      ['AGENTS.md', '.github/copilot-instructions.md'],
    );
  });

  it('sees a .git that makes the folder its own repository (the files above no longer count)', async () => {
    await find();
    await temp.write('repo/app/.git', 'gitdir: /elsewhere\n');
    const found = await find();
    assert.deepEqual(
      found.files.map((file) => file.label),
      ['AGENTS.md'],
    );
  });

  it('does not keep an answer whose files changed just before the read (their times may not show the next change)', async () => {
    await temp.write('repo/app/AGENTS.md', 'Just written.\n');
    await find();
    await find();
    assert.equal(cache.reads, 2);
  });

  it('the shared lookup sees a save made right after a read', async () => {
    const folders = [temp.path('repo/app')];
    assert.match((await findProjectInstructions(folders)).text, /App rules\./);
    await temp.write('repo/app/AGENTS.md', 'App rulez.\n');
    assert.match((await findProjectInstructions(folders)).text, /App rulez\./);
  });
});
