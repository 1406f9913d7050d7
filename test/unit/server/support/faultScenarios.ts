import type * as z from 'zod';
import { type Fault, ScenarioFile } from '../../../../src/server';

// The server setup the fault suites share (faultKinds.test.ts, faultAdminWithoutToken.test.ts): the bearer
// token, one scenario per fault kind and a plain one.

export const TOKEN = 'fault-token';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const STORY = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

export type FaultInput = z.input<typeof Fault>;

/** One fault each, by name; a scenario `fault NAME` carries it on its only step. */
export const CASES = {
  close: { kind: 'close', after_events: 3 },
  malformed: { kind: 'malformed_frame', after_events: 2 },
  truncated: { kind: 'truncated_frame', after_events: 4 },
  error: { kind: 'error', status: 429, code: 'rate_limit_exceeded', message: 'Slow down.', retry_after_s: 7 },
  errorMidStream: { kind: 'error', after_events: 3, code: 'server_is_sad', message: 'It broke.' },
  stall: { kind: 'stall', after_events: 2, ms: 300 },
  slow: { kind: 'slow', factor: 40 },
} satisfies Record<string, FaultInput>;
export type CaseName = keyof typeof CASES;

export const SCENARIOS = ScenarioFile.parse({
  scenarios: [
    { name: 'plain', match: '^plain$', steps: [{ output: [{ type: 'message', text: STORY }] }] },
    ...Object.entries(CASES).map(([name, fault]) => ({
      name,
      match: `^fault ${name}$`,
      steps: [{ output: [{ type: 'message', text: STORY }], fault }],
    })),
    {
      name: 'second step fails',
      match: '^two steps$',
      steps: [
        { output: [{ type: 'function_call', name: 'exec_command', arguments: { cmd: 'true' } }] },
        { output: [{ type: 'message', text: 'done' }], fault: { kind: 'error', status: 503, code: 'overloaded' } },
      ],
    },
  ],
});
