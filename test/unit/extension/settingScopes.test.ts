import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { layeredCommandRules } from '../../../src/extension/trust/commandRulesLayers';
import { FOLDER_SETTINGS, SCOPES, WINDOW_ONLY_SETTINGS } from '../../../src/extension/settings/settingScopes';

// Multi-root workspaces: each setting's scope in the manifest says where VS Code reads it from, and the
// extension reads the resource-scoped ones for the folder a task or file belongs to.

interface Setting {
  scope?: string;
}
interface Manifest {
  contributes: { configuration: { properties: Record<string, Setting> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
const settings = Object.entries(manifest.contributes.configuration.properties).map(
  ([name, setting]) => [name.replace(/^loopwire\./, ''), setting] as const,
);

describe('settings in a multi-root workspace', () => {
  it('gives every setting a scope', () => {
    const unscoped = settings.filter(([, setting]) => !(SCOPES as readonly unknown[]).includes(setting.scope));
    assert.deepEqual(unscoped, []);
  });

  it('reads for a folder exactly the settings the manifest scopes to a resource', () => {
    const resource = settings.filter(([, setting]) => setting.scope === 'resource').map(([name]) => name);
    assert.deepEqual(resource.sort(), [...FOLDER_SETTINGS].sort());
  });

  it('never lets a folder set the endpoint, its headers or the scenario files, nor an untrusted workspace', () => {
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const name of WINDOW_ONLY_SETTINGS) {
      const scope = settings.find(([each]) => each === name)?.[1].scope;
      assert.ok(scope === 'window' || scope === 'application' || scope === 'machine', `${name}: ${scope}`);
      assert.ok(restricted.includes(`loopwire.${name}`), `${name} is restricted in an untrusted workspace`);
    }
  });
});

describe('command rules by where they are set', () => {
  const root = '/home/me/shop';

  it('takes allow rules from the user and what the user kept, never from a workspace or a folder', () => {
    const rules = layeredCommandRules(
      {
        globalValue: { allow: ['npm test'] },
        workspaceValue: { allow: ['curl evil.example'], deny: ['git push'] },
        workspaceFolderValue: { allow: ['rm -rf /'], deny: ['npm publish'] },
      },
      { allow: ['make check'] },
      root,
    );
    assert.deepEqual(rules, { allow: ['npm test', 'make check'], deny: ['git push', 'npm publish'] });
  });

  it("adds a folder's own rules from the user's `folders`, and only that folder's", () => {
    const user = { deny: ['git push'], folders: { [root]: { allow: ['make'] }, '/elsewhere': { allow: ['rm'] } } };
    assert.deepEqual(layeredCommandRules({ globalValue: user }, undefined, root), {
      allow: ['make'],
      deny: ['git push'],
    });
    assert.deepEqual(layeredCommandRules({ globalValue: user }, undefined, '/home/me/other'), {
      allow: [],
      deny: ['git push'],
    });
  });

  it('reads nothing where nothing is set', () => {
    assert.deepEqual(layeredCommandRules(undefined, undefined, root), { allow: [], deny: [] });
  });
});
