import type { ScenarioFile } from '../../../../src/server';
import { sealReasoning } from '../../../../src/server/reasoningSeal';
import { WsClient, useServer } from './harness';

// What the strictness suites share: a scenario that reasons and calls tools, items as a client writes them,
// the API's error body, and an encrypted_content this server issued (and one altered).

export type Item = Record<string, unknown>;
export interface ApiError {
  type: string;
  code: string | null;
  message: string;
  param: string | null;
}

export const THINK: ScenarioFile = {
  scenarios: [
    {
      name: 'think',
      match: 'think first',
      steps: [
        {
          output: [
            { type: 'reasoning', summary: ['Look at the file.', 'Then run it.'] },
            { type: 'function_call', name: 'exec_command', arguments: { cmd: 'ls' } },
          ],
        },
        { output: [{ type: 'message', text: 'Done thinking.' }] },
      ],
    },
    { name: 'hello', match: 'say hello', steps: [{ output: [{ type: 'message', text: 'Hello.' }] }] },
    {
      name: 'patch',
      match: 'patch it',
      steps: [
        { output: [{ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' }] },
        { output: [{ type: 'message', text: 'Patched.' }] },
      ],
    },
  ],
};

export const user = (content: string): Item => ({ role: 'user', content });
export const invalid = (code: string | null, message: string, param: string | null): ApiError => ({
  type: 'invalid_request_error',
  code,
  message,
  param,
});
/** `text` with the character in its middle changed. */
export function flipMiddle(text: string): string {
  const at = Math.floor(text.length / 2);
  return text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
}
export const sealed = sealReasoning('rs_issued', ['Look at the file.']);
export const tampered = flipMiddle(sealed);

/** A server for the suite, the sockets each test opens (closed after it), and the HTTP endpoint. */
export function useStrictServer(scenarios: () => ScenarioFile[]) {
  const harness = useServer(() => ({ scenarios: scenarios() }));
  const sockets: WsClient[] = [];
  afterEach(() => sockets.splice(0).forEach((client) => client.close()));
  return {
    harness,
    openWs: async () => {
      const client = await WsClient.open(harness.url);
      sockets.push(client);
      return client;
    },
    responses: () => `${harness.url}/responses`,
  };
}
