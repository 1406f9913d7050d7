import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { findPromptFiles } from '../../../src/agent';
import type { SlashPort } from '../../../src/extension/chat/composer/chatSlash';
import type { ScenarioFile } from '../../../src/server';
import { requestsOf, useAgentBench } from '../agent/agentHarness';
import { useChatBench } from './chatHarness';

// `/compact` in the chat panel, against the real server: the conversation so far is folded with
// `POST /v1/responses/compact` (the agent's own compaction on request, compactor.ts), a line in the chat says
// what was folded, the transcript keeps the compaction item, and the next prompt goes on from it — its first
// request sends the compacted context in full, its next chains from that response.

const scenario: ScenarioFile = {
  scenarios: [
    {
      name: 'read',
      match: 'read the notes',
      steps: [
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message', text: 'The notes say hello.' }] },
      ],
    },
    {
      name: 'again',
      match: 'and again',
      steps: [
        { output: [{ type: 'function_call', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { output: [{ type: 'message', text: 'Still hello.' }] },
      ],
    },
  ],
};

type Body = { input?: { type?: string }[]; previous_response_id?: string; generate?: boolean };

describe('chat panel host: /compact', function () {
  this.timeout(30_000);
  const bench = useAgentBench(scenario, { 'notes.txt': 'hello\n' }, { tps: 2_000, logBodies: true });
  const ui = useChatBench(bench);
  const port = (): SlashPort => ({
    find: async () => ({ prompts: await findPromptFiles([bench.dir]), skills: [] }),
    root: () => bench.dir,
    review: () => Promise.resolve(false),
  });
  const notices = (chat: ReturnType<typeof ui.controller>) =>
    chat.model.all.flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));

  it('folds the conversation, says so, and the next prompt goes on from the compaction', async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('read the notes')).ok, true);
    assert.equal((await chat.ask('/compact')).ok, true);
    const line = notices(chat).find((text) => text.startsWith('Conversation compacted'));
    // The call, its output and the answer: folded; the prompt is kept.
    assert.match(line ?? '', /^Conversation compacted: 3 items .* tokens\)\. The next prompt goes on from it\.$/u);
    assert.equal((await chat.ask('and again')).ok, true);
    const wire = await bench.wire(); // Read last: it closes the server.
    assert.equal(wire.filter((l) => l.dir === 'in' && l.type === 'POST /v1/responses/compact').length, 1);
    const bodies = requestsOf(wire)
      .map((l) => (l.body ?? {}) as Body)
      .filter((body) => body.generate !== false);
    const [, , first, second] = bodies;
    const types = (first?.input ?? []).map((item) => item.type ?? 'message');
    assert.equal(first?.previous_response_id, undefined, 'the compacted context goes in full');
    assert.ok(types.includes('compaction'), `the first request after starts from the compaction: ${types.join()}`);
    assert.ok(!types.includes('function_call'), 'with nothing it stands for');
    assert.ok(second?.previous_response_id, 'and the next request chains from that response');
    const kept = fs.readFileSync(chat.transcriptFile ?? '', 'utf8');
    assert.match(kept, /"type":"compaction"/u, 'the transcript keeps the compaction');
  });

  it('says there is nothing to compact, sending nothing', async () => {
    ui.slash = port();
    const chat = ui.controller();
    assert.equal((await chat.ask('/compact')).ok, false, 'a new chat has no conversation');
    assert.match(notices(chat).at(-1) ?? '', /Nothing to compact yet/u);
    assert.equal((await chat.ask('read the notes')).ok, true);
    assert.equal((await chat.ask('/compact')).ok, true);
    assert.equal((await chat.ask('/compact')).ok, false, 'twice in a row: the second has nothing left to fold');
    assert.match(notices(chat).at(-1) ?? '', /Nothing to compact: the conversation is already its summary/u);
    const wire = await bench.wire();
    assert.equal(wire.filter((l) => l.dir === 'in' && l.type === 'POST /v1/responses/compact').length, 1);
    assert.equal(chat.busy, false);
  });
});
