import type { Registry } from 'prom-client';

interface Series {
  labels: Record<string, string>;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram cheap enough for every request of the hot path: one Map lookup on a string key and a few
 * additions per observation (prom-client's own histogram validates and hashes the label object each time, which
 * cost get-session's cookie path about 7 % of its throughput here). Rendered at scrape time in the standard
 * histogram shape (_bucket with le, _sum, _count).
 */
export class RouteHistogram {
  readonly type = 'histogram';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  /** `key` identifies the label set; `labels` builds it only the first time the key is seen. */
  observe(key: string, labels: () => Record<string, string>, seconds: number): void {
    let s = this.series.get(key);
    if (!s) {
      s = { labels: labels(), counts: new Float64Array(this.buckets.length), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < this.buckets.length; i++)
      if (seconds <= this.buckets[i]) {
        s.counts[i]++;
        break;
      }
    s.sum += seconds;
    s.count++;
  }

  /** prom-client's metric interface: what the registry renders. */
  async get() {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.buckets.length; i++) {
        cumulative += s.counts[i];
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { ...s.labels, le: this.buckets[i] },
          value: cumulative,
        });
      }
      values.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: 'sum' };
  }

  reset(): void {
    this.series.clear();
  }
}
