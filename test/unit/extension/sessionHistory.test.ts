import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { Transcript } from '../../../src/agent';
import { listSessions } from '../../../src/extension/chat/history/sessionHistory';
import type { InlineEntry } from '../../../src/protocol/chatView';

// History's titles (sessionHistory.ts): a chat's first prompt; a chat of inline entries alone (fixes and
// edits done beside it, no prompt) by its first entry — "Fix: <the problem>", "Edit: <what was asked>", the
// entry's title when it asked nothing — in the person's language; "(no prompt)" for a chat with neither.

const repoRoot = path.join(__dirname, '..', '..', '..');
const zhCn = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

const FIX: InlineEntry = {
  kind: 'inline',
  id: 'inline-1',
  action: 'fix',
  title: 'Fixed inline in config/shipping.json:3',
  outcome: 'kept',
  path: 'config/shipping.json',
  line: 3,
  prompt: '\nExpected a property name, found a comma.\nat position 41',
  diff: [],
  kept: 1,
  note: 'Removed the extra comma.',
};

describe('History: the titles of past chats', () => {
  let dir: string;
  let made = 0;
  /** A chat begun `minutes` after the first, its notes and items in order. */
  const chat = (minutes: number, records: ({ note: InlineEntry } | { prompt: string })[]) => {
    const id = `chat-${++made}`;
    const createdAt = new Date(Date.UTC(2026, 11, 6, 11, minutes)).toISOString();
    const transcript = Transcript.create(
      { id, createdAt, workspace: dir, model: 'gpt-5.5' },
      path.join(dir, `${id}.jsonl`),
    );
    for (const record of records)
      if ('note' in record) transcript.addNote(record.note);
      else transcript.append({ type: 'message', role: 'user', content: record.prompt });
    return id;
  };
  const titles = () => listSessions(dir).map((session) => session.title);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopwire-history-'));
    chat(0, [{ note: FIX }, { note: { ...FIX, action: 'edit', prompt: 'take the percent' } }]);
    chat(1, [{ note: { ...FIX, action: 'edit', prompt: 'take the percent of the amount' } }, { note: FIX }]);
    chat(2, [{ note: FIX }, { prompt: 'why was the comma there?' }]);
    chat(3, [{ note: { ...FIX, prompt: ' \n' } }]);
    chat(4, []);
  });
  afterEach(() => {
    l10n.config({ contents: {} });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a chat of inline entries alone by its first one; a prompt’s chat by its prompt; one with neither says so', () => {
    assert.deepEqual(titles(), [
      '(no prompt)',
      'Fixed inline in config/shipping.json:3',
      'why was the comma there?',
      'Edit: take the percent of the amount',
      'Fix: Expected a property name, found a comma.',
    ]);
  });

  it('in zh-cn', () => {
    l10n.config({ contents: zhCn });
    assert.deepEqual(titles(), [
      '（无提示）',
      'Fixed inline in config/shipping.json:3',
      'why was the comma there?',
      '编辑：take the percent of the amount',
      '修复：Expected a property name, found a comma.',
    ]);
  });
});
