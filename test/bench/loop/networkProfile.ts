import type { NetworkProfile } from './benchTypes';

// The bench's network profiles, from its flags: `loopback` (the bench as it always ran, client and server on
// 127.0.0.1 with nothing between) and `wan` (through netemProxy.ts: a round trip and a rate each way, what a
// user's line adds). `--network both` runs the two side by side in one run, interleaved.

/** A user's line as the issue puts it: 40 ms away, 20 Mbit/s up; 100 Mbit/s down, a common asymmetric line. */
export const WAN_DEFAULTS = { rttMs: 40, uplinkMbit: 20, downlinkMbit: 100 } as const;

export class NetworkFlagError extends Error {
  readonly code = 'invalid_network_flag';
}

export interface NetworkFlags {
  network?: string;
  'rtt-ms'?: string;
  'uplink-mbit'?: string;
  'downlink-mbit'?: string;
}

function positive(flag: string, value: string | undefined, fallback: number, zeroAllowed: boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroAllowed))
    throw new NetworkFlagError(`--${flag} ${value}: give a number${zeroAllowed ? ' ≥ 0' : ' > 0'}`);
  return n;
}

/** The profiles a run measures, in the order they run first; throws {@link NetworkFlagError} on a bad flag. */
export function networkProfiles(flags: NetworkFlags): NetworkProfile[] {
  const name = flags.network ?? 'loopback';
  if (name !== 'loopback' && name !== 'wan' && name !== 'both')
    throw new NetworkFlagError(`--network ${name}: give loopback, wan or both`);
  const shaped = (['rtt-ms', 'uplink-mbit', 'downlink-mbit'] as const).filter((f) => flags[f] !== undefined);
  if (name === 'loopback' && shaped.length > 0)
    throw new NetworkFlagError(`--${shaped[0]} shapes the wan profile: add --network wan (or both)`);
  const loopback: NetworkProfile = { name: 'loopback', rtt_ms: 0, uplink_mbit: null, downlink_mbit: null };
  const wan: NetworkProfile = {
    name: 'wan',
    rtt_ms: positive('rtt-ms', flags['rtt-ms'], WAN_DEFAULTS.rttMs, true),
    uplink_mbit: positive('uplink-mbit', flags['uplink-mbit'], WAN_DEFAULTS.uplinkMbit, false),
    downlink_mbit: positive('downlink-mbit', flags['downlink-mbit'], WAN_DEFAULTS.downlinkMbit, false),
  };
  return name === 'loopback' ? [loopback] : name === 'wan' ? [wan] : [loopback, wan];
}

/** How a profile reads in the bench's output: `wan (40 ms, 20 Mbit/s up, 100 down)`. */
export function describeProfile(profile: NetworkProfile): string {
  if (profile.name === 'loopback') return 'loopback';
  const rate = (mbit: number | null) => (mbit === null ? 'unlimited' : `${mbit} Mbit/s`);
  return `${profile.name} (${profile.rtt_ms} ms, ${rate(profile.uplink_mbit)} up, ${rate(profile.downlink_mbit)} down)`;
}
