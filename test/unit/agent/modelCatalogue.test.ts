import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import {
  MODEL_CATALOGUE,
  type ModelProfile,
  UNKNOWN_MODEL,
  contextWindowFor,
  modelFields,
  modelProfile,
} from '../../../src/agent';
import { editStyleFor } from '../../../src/tools';

// The model catalogue: what each family is sent and offered, the defaults a user's choice overrides, and the
// table docs/endpoints.md prints (checked here cell by cell; `UPDATE_SNAPSHOTS=1` writes it).

const DOC = path.resolve(__dirname, '../../../docs/endpoints.md');
const BEGIN = '<!-- model-catalogue: written by test/unit/agent/modelCatalogue.test.ts (UPDATE_SNAPSHOTS=1) -->';
const END = '<!-- /model-catalogue -->';

const code = (value: string) => `\`${value}\``;
const yes = (value: boolean) => (value ? 'yes' : 'no');

/** One row of the docs' table, as cells. */
function cells(row: ModelProfile): string[] {
  return [
    row.family === UNKNOWN_MODEL.family ? 'any other' : code(row.family),
    row.contextWindow.toLocaleString('en-US'),
    row.effort === undefined ? 'none sent' : code(row.effort),
    row.verbosity === undefined ? 'none sent' : code(row.verbosity),
    code(row.editTool) + (row.family === UNKNOWN_MODEL.family ? ' (`apply_patch` for `gpt-*`, `o*`)' : ''),
    code(row.shellTool),
    yes(row.planTool),
    row.parallelCalls === undefined ? 'not sent' : code(String(row.parallelCalls)),
    row.toolOutputTokens.toLocaleString('en-US'),
    yes(row.images),
    yes(row.steering),
    yes(row.subagents),
  ];
}

const HEADER = [
  'family',
  'input window',
  'effort',
  'verbosity',
  'edit tool',
  'shell tool',
  'plan tool',
  '`parallel_tool_calls`',
  'tool output (tokens)',
  'images',
  'steering',
  'subagents',
];

const line = (row: readonly string[]) => `| ${row.join(' | ')} |`;

function table(): string {
  const rows = [HEADER, HEADER.map(() => '---'), ...MODEL_CATALOGUE.map(cells)];
  return rows.map(line).join('\n');
}

/** The table's rows in the doc, as trimmed cells (so Prettier's padding does not matter). */
function docRows(text: string): string[][] {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  assert.ok(start >= 0 && end > start, `docs/endpoints.md has no ${BEGIN} … ${END} block`);
  return text
    .slice(start + BEGIN.length, end)
    .split('\n')
    .filter((row) => row.startsWith('|'))
    .map((row) =>
      row
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim().replace(/^-+$/, '---')),
    );
}

describe('model catalogue', () => {
  it('docs/endpoints.md prints the table as it is', async () => {
    const text = fs.readFileSync(DOC, 'utf8');
    if (process.env.UPDATE_SNAPSHOTS === '1') {
      const start = text.indexOf(BEGIN);
      const end = text.indexOf(END);
      const next = `${text.slice(0, start + BEGIN.length)}\n\n${table()}\n\n${text.slice(end)}`;
      fs.writeFileSync(DOC, await prettier.format(next, { parser: 'markdown', printWidth: 120 }));
    }
    const rendered = table()
      .split('\n')
      .map((row) => row.slice(2, -2).split(' | '));
    assert.deepEqual(docRows(fs.readFileSync(DOC, 'utf8')), rendered);
  });

  it('GPT-5.x: medium effort, low verbosity; Codex models: medium and medium; every GPT-5 and Codex model gets the plan tool and images', () => {
    for (const model of ['gpt-5', 'gpt-5.1', 'gpt-5.2', 'gpt-5.5', 'gpt-5-mini', 'openai/gpt-5.2']) {
      const profile = modelProfile(model);
      assert.equal(profile.effort, 'medium', model);
      assert.equal(profile.verbosity, 'low', model);
      assert.ok(profile.planTool && profile.images, model);
    }
    for (const model of ['gpt-5-codex', 'gpt-5.1-codex-max', 'gpt-5.2-codex', 'GPT-5.2-Codex']) {
      const profile = modelProfile(model);
      assert.deepEqual([profile.effort, profile.verbosity, profile.planTool], ['medium', 'medium', true], model);
    }
    assert.ok(modelProfile('gpt-6').steering && modelProfile('gpt-6.1-codex').steering);
    assert.ok(!modelProfile('gpt-5.5').steering);
  });

  it('a model it does not know: no effort, no verbosity, no plan tool, no images, the edit tool its name suggests', () => {
    const profile = modelProfile('some-model');
    assert.deepEqual(profile, UNKNOWN_MODEL);
    assert.equal(profile.effort, undefined);
    assert.ok(!profile.planTool && !profile.images && !profile.steering);
    assert.equal(modelProfile('gpt-3.5-turbo').editTool, editStyleFor('gpt-3.5-turbo'));
    assert.deepEqual(modelFields('some-model'), {}, 'nothing a server could refuse');
  });

  it('the edit tool of each family is what the tools would pick by name', () => {
    for (const model of ['gpt-5.2-codex', 'gpt-5.2', 'gpt-4.1', 'gpt-4o', 'o3', 'codex-mini-latest', 'gpt-oss-20b'])
      assert.equal(modelProfile(model).editTool, editStyleFor(model), model);
  });

  it('holds the context windows', () => {
    assert.equal(contextWindowFor('gpt-5.5'), 272_000);
    assert.equal(contextWindowFor('gpt-4.1-mini'), 1_000_000);
    assert.equal(contextWindowFor('o4-mini'), 200_000);
    assert.equal(contextWindowFor('gpt-oss:20b'), 131_072);
    assert.equal(contextWindowFor('some-model'), 272_000);
    assert.equal(contextWindowFor('gpt-5.5', 50_000), 50_000, 'a setting wins');
  });

  it("'default' sends the catalogue's values; a choice of the user's wins; 'none' sends none", () => {
    assert.deepEqual(modelFields('gpt-5.2-codex'), {
      reasoning: { effort: 'medium', summary: 'auto' },
      text: { verbosity: 'medium' },
      parallel_tool_calls: true,
    });
    assert.deepEqual(modelFields('gpt-5.2', { reasoningEffort: 'high', verbosity: 'high' }), {
      reasoning: { effort: 'high', summary: 'auto' },
      text: { verbosity: 'high' },
      parallel_tool_calls: true,
    });
    assert.deepEqual(modelFields('gpt-5.2', { reasoningEffort: 'none' }), {
      reasoning: { effort: 'none' },
      text: { verbosity: 'low' },
      parallel_tool_calls: true,
    });
    assert.deepEqual(modelFields('some-model', { reasoningEffort: 'low' }), { reasoning: { effort: 'low' } });
  });
});
