import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '@vscode/l10n';
import { faultDisplay } from '../../../src/agent/transport/faultDisplay';
import { actionFor } from '../../../src/agent/transport/retryPolicy';
import { type TransportFault, describeFault } from '../../../src/agent/transport/transportFault';
import { repoRoot } from '../support/runProcess';

// A transport fault as a stop line tells it: in the person's language, while describeFault, which is also a
// WebSocket close frame's reason (at most 123 bytes), stays English. In English the two read the same.

const zhCn = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
  string,
  string
>;

const FAULTS: TransportFault[] = [
  { kind: 'closed', beforeFirstEvent: true, message: 'code 1006' },
  { kind: 'closed', beforeFirstEvent: false, message: 'code 1006' },
  { kind: 'connect_failed', status: undefined, message: 'ECONNRESET', retryAfterMs: undefined },
  { kind: 'connect_failed', status: 502, message: 'Bad Gateway', retryAfterMs: undefined },
  { kind: 'connect_failed', status: 401, message: 'the upgrade was refused with HTTP 401', retryAfterMs: undefined },
  {
    kind: 'api_error',
    error: { status: 400, type: 'invalid_request_error', code: 'bad', message: 'No.', param: null },
    retryAfterMs: undefined,
    midStream: false,
  },
  { kind: 'response_failed', code: 'server_error', message: 'Something broke.' },
  { kind: 'malformed', message: 'Unexpected token' },
  { kind: 'stalled', idleMs: 4_200 },
  { kind: 'stalled', idleMs: 61_000 },
];

describe('l10n: a transport fault as the person reads it', () => {
  after(() => l10n.config({ contents: {} }));

  it('in English, faultDisplay reads as describeFault, fault by fault', () => {
    l10n.config({ contents: {} });
    for (const fault of FAULTS) assert.equal(faultDisplay(fault), describeFault(fault));
  });

  it('in zh-cn, the stop line’s fault is Chinese around the API’s words; describeFault stays English', () => {
    l10n.config({ contents: zhCn });
    assert.deepEqual(
      FAULTS.map((fault) => faultDisplay(fault)),
      [
        '响应开始前连接已关闭（code 1006）',
        '响应中途连接已关闭（code 1006）',
        '无法连接：ECONNRESET',
        '无法连接（HTTP 502）：Bad Gateway',
        '无法连接：the upgrade was refused with HTTP 401',
        'bad (400): No.',
        '响应失败：server_error：Something broke.',
        '收到格式错误的帧：Unexpected token',
        '4.2 秒内没有收到任何事件',
        '61 秒内没有收到任何事件',
      ],
    );
    assert.equal(
      describeFault(FAULTS[0] as TransportFault),
      'the connection closed before the response started (code 1006)',
    );
    const refused = actionFor(FAULTS[4] as TransportFault, 'ws', 'ws');
    assert.ok(refused.action === 'stop');
    assert.equal(refused.message, '端点拒绝了凭据：无法连接：the upgrade was refused with HTTP 401.');
  });
});
