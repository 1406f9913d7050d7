import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './runProcess';

/** The worked WebSocket exchange of docs/protocol.md §2.5, one frame per line, in wire order. */
export const WS_FUNCTION_CALL = path.join(repoRoot, 'test/fixtures/protocol/ws-function-call.jsonl');

/** The frames of a JSON Lines fixture, parsed. */
export function readFrames(file: string): ({ type: string } & Record<string, unknown>)[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
}
