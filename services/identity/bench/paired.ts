import { type LoadSettings, measure, type Row, type Scenario } from './load';
import type { ReportRow } from './report';
import { measureRotated, type RotatedScenario } from './wrk';

/**
 * A get-session row and the floor it is compared with, measured alternately: floor, subject, floor, subject…
 * (`rounds` of each, BENCH_ROUNDS), with both servers up the whole time. The host's speed drifts by tens of percent
 * over minutes (a virtual machine's neighbours, a core waking from idle), and measuring all floors first and the
 * subjects a minute later turned that drift into the ratio; alternating puts both sides of each round in the same
 * minute and the ratio is the median of the rounds' ratios.
 */
export interface Pair {
  floor: { name: string; url: string; serverPid: number | undefined };
  subject: { name: string; url: string; serverPid: number | undefined };
  /** The cookies of one round, the same on both sides (asked again each round: the cache cookie lives a minute). */
  cookies: () => Promise<string[]>;
  /** The subject's answers must name this user (`"email":"…"`). */
  email: string;
  /** wrk, the next session on every request; otherwise autocannon, one session per connection. */
  rotated: boolean;
}

export async function measurePair(pair: Pair, settings: LoadSettings, rounds: number): Promise<ReportRow[]> {
  const floors: Row[] = [];
  const subjects: Row[] = [];
  for (let round = 0; round < rounds; round++) {
    const cookies = await pair.cookies();
    floors.push(await measureOne(pair.floor, cookies, settings, pair.rotated));
    subjects.push(await measureOne(pair.subject, cookies, settings, pair.rotated, pair.email));
  }
  const ratio = median(subjects.map((s, i) => s.rps / floors[i].rps));
  return [combine(floors), { ...combine(subjects), ratioTo: pair.floor.name, ratio }];
}

function measureOne(
  side: Pair['floor'],
  cookies: string[],
  settings: LoadSettings,
  rotated: boolean,
  email?: string,
): Promise<Row> {
  const needle = email === undefined ? undefined : `"email":"${email}"`;
  if (rotated) {
    const scenario: RotatedScenario = { name: side.name, url: side.url, cookies, mustContain: needle };
    return measureRotated(scenario, settings, side.serverPid);
  }
  const verifyBody = needle === undefined ? undefined : (body: string) => body.includes(needle);
  const scenario: Scenario = { name: side.name, url: side.url, cookies, verifyBody };
  return measure(scenario, settings, side.serverPid);
}

/**
 * One row from the rounds: the median round's throughput and CPU, the median p50, and the worst round's p99 (the
 * tail goal holds in every round, not on average); the note gives the rounds' spread.
 */
export function combine(rounds: Row[]): Row {
  const byRps = [...rounds].sort((x, y) => x.rps - y.rps);
  const middle = byRps[Math.floor((byRps.length - 1) / 2)];
  const p50s = rounds.map((r) => r.p50).filter((p): p is number => p !== null);
  const p99s = rounds.map((r) => r.p99).filter((p): p is number => p !== null);
  const spread =
    rounds.length > 1 ? `${rounds.length} rounds ${Math.round(byRps[0].rps)}–${Math.round(byRps.at(-1)!.rps)}/s` : '';
  return {
    name: middle.name,
    rps: byRps.length % 2 ? middle.rps : median(rounds.map((r) => r.rps)),
    p50: p50s.length ? median(p50s) : null,
    p99: p99s.length ? Math.max(...p99s) : null,
    rssMb: rounds.at(-1)!.rssMb,
    cpu: middle.cpu,
    note: [spread, ...rounds.map((r) => r.note).filter(Boolean)].filter(Boolean).join('; ') || undefined,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
