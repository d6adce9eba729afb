/**
 * Where a host's ssh control socket goes: ssh binds `<ControlPath>.<16 random chars>` before it
 * renames it into place, so the path plus 17 bytes must fit the platform's sun_path (107
 * bytes on Linux, 103 on macOS and the BSDs). A state dir 61–64 characters long fits on Linux
 * and not on macOS; a path that does not fit goes to a short private folder; one that fits
 * nowhere is one sentence.
 */
import {describe, expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {socketPathLimit} from '../../../src/base/paths.js';
import {controlDir} from '../../../src/remote/control-dir.js';
import {HostLink} from '../../../src/remote/link.js';

const KEY = '0123456789abcdef';
const MAC_TMP = '/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T';
/** A state dir of `n` characters. */
const stateOf = (n: number) => `/Users/${'a'.repeat(n - '/Users/'.length)}`;
const dirFor = (n: number, platform: NodeJS.Platform, tmp = '/tmp') =>
  controlDir({stateDir: stateOf(n), key: KEY, platform, tmp, uid: 501});

describe('controlDir', () => {
  test('the limits: 107 bytes on Linux, 103 elsewhere', () => {
    expect(socketPathLimit('linux')).toBe(107);
    expect(socketPathLimit('darwin')).toBe(103);
    expect(socketPathLimit('freebsd')).toBe(103);
  });

  test('a 64-character state dir: its own folder on Linux, the temp folder on macOS', () => {
    expect(dirFor(64, 'linux')).toBe(`${stateOf(64)}/ssh`);
    expect(dirFor(64, 'darwin', MAC_TMP)).toBe(`${MAC_TMP}/nudge-ssh-501`);
    // At the edge: the socket path plus ssh's 17 bytes is exactly the limit.
    expect(dirFor(60, 'darwin')).toBe(`${stateOf(60)}/ssh`);
    expect(`${dirFor(60, 'darwin')}/${KEY}.sock`.length + 17).toBe(103);
    expect(dirFor(61, 'darwin', MAC_TMP)).toBe(`${MAC_TMP}/nudge-ssh-501`);
  });

  test('a temp folder too long as well: /tmp', () => {
    const long = `/var/folders/${'x'.repeat(60)}/T`;
    expect(dirFor(80, 'darwin', long)).toBe('/tmp/nudge-ssh-501');
  });

  test('counted in bytes: a state dir with wide characters', () => {
    const wide = `/home/${'é'.repeat(30)}`; // 36 characters, 66 bytes
    expect(controlDir({stateDir: wide, key: KEY, platform: 'linux', tmp: '/tmp', uid: 1})).toBe(
      '/tmp/nudge-ssh-1',
    );
  });

  test('nowhere fits: one sentence, naming where it looked and what to do', () => {
    // A key this long overflows every candidate (the real key is 16 characters).
    const make = () =>
      controlDir({
        stateDir: stateOf(95),
        key: 'k'.repeat(90),
        platform: 'darwin',
        tmp: MAC_TMP,
        uid: 7,
      });
    expect(make).toThrow(NudgeError);
    expect(make).toThrow(
      /^ssh's control socket does not fit in 103 bytes under .*\/tmp\/nudge-ssh-7; set NUDGE_HOME to a shorter path\.$/,
    );
  });

  test('HostLink uses it: its socket path fits this platform', () => {
    const link = new HostLink('box', {
      stateDir: stateOf(64),
      settings: {sshConfig: undefined, sessions: 2, nudge: {}} as never,
      env: {},
      asker: {kind: 'person'},
    });
    expect(Buffer.byteLength(link.controlPath) + 17).toBeLessThanOrEqual(
      socketPathLimit(process.platform),
    );
  });
});
