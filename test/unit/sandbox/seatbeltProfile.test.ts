import * as assert from 'node:assert/strict';
import { PROTECTED_FOLDERS } from '../../../src/sandbox';
import { seatbeltArgs, seatbeltProfile } from '../../../src/sandbox/seatbeltProfile';

// The Seatbelt profile cannot run here (sandbox-exec is macOS's): what is checked is the text it generates
// and the parameters it is given — writable roots present, protected folders excepted, the network only
// where allowed, credential stores unreadable, and paths that no quote or backslash can turn into SBPL.

const input = {
  writableRoots: ['/Users/me/project'],
  hidden: ['/Users/me/.ssh', '/Users/me/.aws'],
  privateTmp: '/private/var/folders/xy/T/loopwire-sandbox-1',
  network: false,
};

function value(params: [string, string][], name: string): string | undefined {
  return params.find(([key]) => key === name)?.[1];
}

describe('sandbox: the Seatbelt profile (macOS)', () => {
  it('denies by default and lets the command run its children', () => {
    const { profile } = seatbeltProfile(input);
    assert.match(profile, /^\(version 1\)\n\(deny default\)\n/);
    assert.match(profile, /\(allow process-exec\)/);
    assert.match(profile, /\(allow process-fork\)/);
  });

  it('writes the workspace root, minus each protected folder and the folder a nested one sits in', () => {
    const { profile, params } = seatbeltProfile(input);
    assert.equal(value(params, 'WRITABLE_ROOT_0'), '/Users/me/project');
    assert.match(profile, /\(allow file-write\*\n {2}\(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\)/);
    PROTECTED_FOLDERS.forEach((folder, j) => {
      const name = `WRITABLE_ROOT_0_RO_${j}`;
      assert.equal(value(params, name), `/Users/me/project/${folder}`);
      assert.ok(profile.includes(`(require-not (literal (param "${name}")))`), `${folder}: its own name`);
      assert.ok(profile.includes(`(require-not (subpath (param "${name}")))`), `${folder}: what is in it`);
    });
    assert.equal(value(params, 'WRITABLE_ROOT_0_PIN_0'), '/Users/me/project/.github');
    assert.ok(profile.includes('(require-not (literal (param "WRITABLE_ROOT_0_PIN_0")))'));
  });

  it('writes nothing of the workspace in read-only, only the private temp folder', () => {
    const { profile, params } = seatbeltProfile({ ...input, writableRoots: [] });
    assert.ok(!profile.includes('WRITABLE_ROOT_0'));
    assert.equal(value(params, 'PRIVATE_TMP'), input.privateTmp);
    assert.match(profile, /\(allow file-read\* file-write\* \(subpath \(param "PRIVATE_TMP"\)\)\)/);
  });

  it('hides the credential stores from reading and writing', () => {
    const { profile, params } = seatbeltProfile(input);
    assert.equal(value(params, 'HIDDEN_0'), '/Users/me/.ssh');
    assert.equal(value(params, 'HIDDEN_1'), '/Users/me/.aws');
    assert.match(
      profile,
      /\(allow file-read-data file-read-xattr \(require-all \(require-not \(subpath \(param "HIDDEN_0"\)\)\) \(require-not \(subpath \(param "HIDDEN_1"\)\)\)\)\)/,
    );
    assert.ok(!/\(allow file-read\*\)/.test(profile), 'no unconditional read');
    const writes = profile.slice(profile.indexOf('(allow file-write*\n'));
    assert.ok(
      writes.includes('(require-not (subpath (param "HIDDEN_0")))'),
      'a store inside the workspace stays hidden',
    );
  });

  it('reaches the network only where allowed', () => {
    const off = seatbeltProfile(input).profile;
    assert.ok(!/network-outbound \(remote ip/.test(off));
    assert.ok(!off.includes('com.apple.dnssd.service'));
    const on = seatbeltProfile({ ...input, network: true }).profile;
    assert.match(on, /\(allow network-outbound \(remote ip "\*:\*"\)\)/);
    assert.match(on, /com\.apple\.dnssd\.service/);
  });

  it('passes every path as a -D parameter: quotes and backslashes never reach the profile', () => {
    const odd = '/Users/me/a "quoted" \\ path) (allow default';
    const args = seatbeltArgs({ ...input, writableRoots: [odd] }, 'sh', ['-c', 'true']);
    const profile = args[1] ?? '';
    assert.equal(args[0], '-p');
    assert.ok(!profile.includes(odd) && !profile.includes('quoted'));
    assert.ok(args.includes(`WRITABLE_ROOT_0=${odd}`));
    assert.equal(args[args.indexOf(`WRITABLE_ROOT_0=${odd}`) - 1], '-D');
    assert.deepEqual(args.slice(-4), ['--', 'sh', '-c', 'true']);
    // Balanced parentheses: the profile is one well-formed list of forms.
    let openForms = 0;
    for (const char of profile.replace(/"[^"]*"|#"[^"]*"/g, '')) {
      openForms += char === '(' ? 1 : char === ')' ? -1 : 0;
      assert.ok(openForms >= 0);
    }
    assert.equal(openForms, 0);
  });
});
