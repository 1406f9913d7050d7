import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../support/runProcess';

// Every string the code sends through l10n is in the English bundle, and every shipped locale translates
// every key of it and of the manifest's package.nls.json, keeping the same {0}, {1}… placeholders. A key
// missing from a locale would show in English in the middle of that language; a placeholder lost would drop
// a file name or a count from the sentence.

interface L10nCall {
  where: string;
  key: string | undefined;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { l10nCalls, placeholders } = require('../../../scripts/lib/l10nKeys.js') as {
  l10nCalls: (repo: string) => L10nCall[];
  placeholders: (message: string) => string[];
};

type Bundle = Record<string, string>;
const readBundle = (file: string): Bundle => JSON.parse(fs.readFileSync(file, 'utf8')) as Bundle;
const l10nDir = path.join(repoRoot, 'l10n');
const english = readBundle(path.join(l10nDir, 'bundle.l10n.json'));

/** The locales shipped beside an English file `base.json`: `base.<locale>.json`. */
function localesOf(dir: string, base: string): string[] {
  const pattern = new RegExp(`^${base.replace(/\./g, '\\.')}\\.([a-z]{2}(?:-[a-z]+)?)\\.json$`);
  return fs.readdirSync(dir).flatMap((name) => pattern.exec(name)?.[1] ?? []);
}

/** What `translated` lacks, adds, or renders with other placeholders than `source`. */
function gaps(source: Bundle, translated: Bundle): string[] {
  const problems: string[] = [];
  for (const [key, message] of Object.entries(source)) {
    const text = translated[key];
    if (typeof text !== 'string' || text === '') problems.push(`missing: ${JSON.stringify(key)}`);
    else if (placeholders(text).join() !== placeholders(message).join())
      problems.push(`placeholders differ: ${JSON.stringify(key)} → ${JSON.stringify(text)}`);
  }
  for (const key of Object.keys(translated))
    if (!(key in source)) problems.push(`not in English: ${JSON.stringify(key)}`);
  return problems;
}

describe('l10n: bundles', () => {
  const calls = l10nCalls(repoRoot);

  it('every l10n call names its text as a literal, so that it can be found and translated', () => {
    assert.ok(calls.length > 0);
    assert.deepEqual(
      calls.filter((call) => call.key === undefined).map((call) => call.where),
      [],
    );
  });

  it('l10n/bundle.l10n.json holds every key of the code, each its own English text (node scripts/l10nBundle.js)', () => {
    const used = [...new Set(calls.flatMap((call) => call.key ?? []))].sort();
    assert.deepEqual(
      used.filter((key) => !(key in english)),
      [],
    );
    for (const [key, message] of Object.entries(english)) assert.equal(message, key);
  });

  it('zh-cn is shipped, for the panel, the extension and the CLI alike', () => {
    assert.ok(localesOf(l10nDir, 'bundle.l10n').includes('zh-cn'));
  });

  for (const locale of localesOf(l10nDir, 'bundle.l10n'))
    it(`bundle.l10n.${locale}.json translates every key of the English bundle, with the same placeholders`, () => {
      assert.deepEqual(gaps(english, readBundle(path.join(l10nDir, `bundle.l10n.${locale}.json`))), []);
    });

  it("the manifest's titles, descriptions and view names are %keys%, none a literal", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      description: string;
      contributes: Record<string, unknown>;
    };
    const literals: string[] = [];
    const SHOWN = /^(title|description|markdownDescription|name|enumDescriptions|markdownEnumDescriptions)$/;
    const walk = (value: unknown, where: string, shown: boolean): void => {
      if (typeof value === 'string') {
        if (shown && !/^%[^%]+%$/.test(value) && value !== 'Loopwire') literals.push(`${where}: ${value}`);
      } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${where}[${i}]`, shown));
      else if (typeof value === 'object' && value !== null)
        for (const [key, item] of Object.entries(value)) walk(item, `${where}.${key}`, SHOWN.test(key));
    };
    walk(manifest.description, 'description', true);
    walk(manifest.contributes, 'contributes', false);
    assert.deepEqual(literals, []);
  });

  const nls = path.join(repoRoot, 'package.nls.json');
  it("every %key% of the manifest is in package.nls.json, and every shipped locale's package.nls translates them all", function () {
    if (!fs.existsSync(nls)) this.skip();
    const manifest = fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8');
    const source = readBundle(nls);
    const used = [...new Set([...manifest.matchAll(/"%([^%"]+)%"/g)].flatMap((match) => match[1] ?? []))].sort();
    assert.deepEqual(
      used.filter((key) => !(key in source)),
      [],
      'keys of package.json missing from package.nls.json',
    );
    const locales = localesOf(repoRoot, 'package.nls');
    assert.ok(locales.includes('zh-cn'), 'package.nls.zh-cn.json is shipped');
    for (const locale of locales)
      assert.deepEqual(gaps(source, readBundle(path.join(repoRoot, `package.nls.${locale}.json`))), [], locale);
  });
});
