import * as assert from 'node:assert/strict';
import { type FaultAction, actionFor } from '../../../src/agent/transport/retryPolicy';
import type { TransportFault } from '../../../src/agent/transport/transportFault';
import { ERROR_CODES } from '../../../src/protocol';

// The stops of the retry policy, as a table: each has the code a front end picks its remedy from, and a
// message that states the fault and names no front end's remedy — not `loopwire exec`'s variable or flags,
// not VS Code's commands or settings (each front end adds its own: the CLI a line of advice, the panel a
// button).

const connect = (status: number | undefined, unreachable = false): TransportFault => ({
  kind: 'connect_failed',
  status,
  message: status === undefined ? 'connect ECONNREFUSED 127.0.0.1:9' : `the upgrade was refused with HTTP ${status}`,
  retryAfterMs: undefined,
  ...(unreachable ? { unreachable } : {}),
});

const apiError = (code: string, status: number): TransportFault => ({
  kind: 'api_error',
  error: { status, type: 'invalid_request_error', code, message: 'Refused.', param: null },
  retryAfterMs: undefined,
  midStream: false,
});

/** Words that belong to one front end's remedy only. */
const FRONT_END_ADVICE = /OPENAI_API_KEY|loopwire exec|--[a-z]|VS Code|Set API Key|Select Endpoint|loopwire\.[a-z]/;

const stop = (action: FaultAction): Extract<FaultAction, { action: 'stop' }> => {
  assert.equal(action.action, 'stop', JSON.stringify(action));
  return action;
};

describe('agent: the retry policy’s stops', () => {
  const table: Array<[string, FaultAction, string, RegExp]> = [
    [
      'nothing listens, before the endpoint ever answered',
      actionFor(connect(undefined, true), 'ws', 'auto', false),
      'unreachable',
      /^Nothing answers at the endpoint: connect ECONNREFUSED 127\.0\.0\.1:9\.$/,
    ],
    [
      'a 401 at the upgrade',
      actionFor(connect(401), 'ws', 'auto'),
      'auth',
      /^The endpoint refused the credentials: could not connect: the upgrade was refused with HTTP 401\.$/,
    ],
    ['a 403 at the POST', actionFor(connect(403), 'http', 'http'), 'auth', /^The endpoint refused the credentials: /],
    [
      'an upgrade refused with 404, transport ws',
      actionFor(connect(404), 'ws', 'ws'),
      'websocket_unsupported',
      /^The endpoint does not offer WebSocket mode: could not connect: .*404\.$/,
    ],
    [
      'invalid_api_key from the API',
      actionFor(apiError('invalid_api_key', 401), 'http', 'http'),
      'auth',
      /^The API refused the request: invalid_api_key \(401\): Refused\.$/,
    ],
    [
      'model_not_found from the API',
      actionFor(apiError('model_not_found', 404), 'ws', 'auto'),
      'model_not_found',
      new RegExp(
        `^The API refused the request: model_not_found \\(404\\): Refused\\. ${ERROR_CODES.model_not_found.advice}$`,
      ),
    ],
  ];
  for (const [name, action, code, message] of table)
    it(`${name}: stops with code ${code} and the fault alone`, () => {
      const stopped = stop(action);
      assert.equal(stopped.code, code);
      assert.match(stopped.message, message);
      assert.doesNotMatch(stopped.message, FRONT_END_ADVICE);
    });

  it('the error table’s advice names no front end either', () => {
    for (const [code, info] of Object.entries(ERROR_CODES))
      if ('advice' in info) assert.doesNotMatch(info.advice, FRONT_END_ADVICE, code);
  });

  it('an upgrade refused with 404 in auto falls back to HTTP at once, and an unreachable endpoint that answered before is retried', () => {
    assert.deepEqual(actionFor(connect(404), 'ws', 'auto'), {
      action: 'retry',
      newSocket: true,
      delayMs: 0,
      transportFailure: true,
      fallBack: true,
    });
    assert.equal(actionFor(connect(undefined, true), 'ws', 'auto', true).action, 'retry');
  });
});
