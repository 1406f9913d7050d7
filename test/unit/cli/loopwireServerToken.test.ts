import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ECHO_SCENARIO, post } from '../server/support/harness';
import { type Running, launch, runToEnd, runWithEnv, useServerBin } from './serverBin';

// `loopwire-server`'s token kept off the command line: --token-file and LOOPWIRE_SERVER_TOKEN.

describe('cli: loopwire-server', function () {
  let dir: string;
  useServerBin((folder) => (dir = folder));

  describe('the token, kept off the command line', () => {
    /** 401 without the bearer token, 200 with it: the server requires exactly `token`. */
    async function requires(server: Running, token: string): Promise<void> {
      const body = { model: 'm', store: false, input: 'echo hi' };
      assert.equal((await post(`${server.url}/responses`, body)).status, 401);
      assert.equal((await post(`${server.url}/responses`, body, { authorization: 'Bearer wrong' })).status, 401);
      const ok = await post(`${server.url}/responses`, body, { authorization: `Bearer ${token}` });
      assert.equal(ok.status, 200, ok.text);
    }

    it('--token-file: the first line of the file, trimmed; stderr names the source, never the token', async () => {
      const file = path.join(dir, 'token');
      fs.writeFileSync(file, '  from-the-file \r\nsecond line ignored\n');
      const server = await launch(['--scenario', ECHO_SCENARIO, '--token-file', file]);
      await requires(server, 'from-the-file');
      assert.match(
        server.stderr(),
        new RegExp(`every request needs the bearer token from --token-file ${escape(file)}\n`),
      );
      assert.doesNotMatch(server.stderr(), /from-the-file/);
    });

    it('LOOPWIRE_SERVER_TOKEN: used when no flag gives one; either flag wins over it', async () => {
      const file = path.join(dir, 'token');
      fs.writeFileSync(file, 'file-token\n');
      const env = { LOOPWIRE_SERVER_TOKEN: ' env-token\n' };
      const [fromEnv, fileWins, flagWins] = await Promise.all([
        launch(['--scenario', ECHO_SCENARIO], env),
        launch(['--scenario', ECHO_SCENARIO, '--token-file', file], env),
        launch(['--scenario', ECHO_SCENARIO, '--token', 'flag-token'], env),
      ]);
      assert.ok(fromEnv && fileWins && flagWins);
      await requires(fromEnv, 'env-token');
      assert.match(fromEnv.stderr(), /every request needs the bearer token from LOOPWIRE_SERVER_TOKEN\n/);
      await requires(fileWins, 'file-token');
      await requires(flagWins, 'flag-token');
      assert.match(flagWins.stderr(), /every request needs the bearer token from --token\n/);
    });

    it('a missing or empty token file, or an empty variable: exit code 1 with the reason, no usage', async () => {
      const empty = path.join(dir, 'empty');
      fs.writeFileSync(empty, '');
      const blankFirst = path.join(dir, 'blank-first');
      fs.writeFileSync(blankFirst, '   \nthe-token-on-line-two\n');
      const missing = path.join(dir, 'missing');
      const cases: [string[], Record<string, string>, RegExp][] = [
        [
          ['--token-file', missing],
          {},
          new RegExp(`^loopwire-server: --token-file ${escape(missing)}: cannot read: ENOENT`),
        ],
        [['--token-file', dir], {}, new RegExp(`^loopwire-server: --token-file ${escape(dir)}: cannot read: EISDIR`)],
        [['--token-file', empty], {}, /: its first line is empty; put the token there\n/],
        [['--token-file', blankFirst], {}, /: its first line is empty; put the token there\n/],
        [[], { LOOPWIRE_SERVER_TOKEN: '  ' }, /^loopwire-server: LOOPWIRE_SERVER_TOKEN is set but empty; unset it/],
      ];
      const results = await Promise.all(cases.map(([args, env]) => runWithEnv(args, env)));
      cases.forEach(([args, , reason], index) => {
        const result = results[index];
        assert.ok(result);
        assert.equal(result.code, 1, `${args.join(' ')}: ${result.stderr}`);
        assert.match(result.stderr, reason);
        assert.doesNotMatch(result.stderr, /usage:/);
        assert.equal(result.stdout, '');
      });
    });

    it('--help offers --token-file and the variable, and warns that --token shows in the process list', async () => {
      const help = await runToEnd(['--help']);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /\[--token-file FILE \| --token T\]/);
      assert.match(help.stdout, /\n {2}--token-file FILE {11}require "Authorization: Bearer T"/);
      assert.match(help.stdout, /read it in the process list: prefer --token-file or LOOPWIRE_SERVER_TOKEN\n/);
      assert.match(
        help.stdout,
        /\nEnvironment:\n {2}LOOPWIRE_SERVER_TOKEN {7}the token, when neither --token-file nor --token is given\n/,
      );
    });
  });
});
