import { Registry } from 'prom-client';
import { RouteHistogram } from './route-histogram';

describe('RouteHistogram', () => {
  it('renders cumulative buckets, sum and count per label set in the Prometheus text format', async () => {
    const registry = new Registry();
    const h = new RouteHistogram('t_seconds', 'test', [0.01, 0.1], registry);
    let built = 0;
    const labels = () => {
      built++;
      return { route: '/x', status: '200' };
    };
    h.observe('a', labels, 0.005);
    h.observe('a', labels, 0.05);
    h.observe('a', labels, 3);
    h.observe('b', () => ({ route: '/y', status: '500' }), 0.1);
    expect(built).toBe(1); // labels are built once per key
    const text = await registry.metrics();
    expect(text).toContain('# TYPE t_seconds histogram');
    for (const line of [
      't_seconds_bucket{route="/x",status="200",le="0.01"} 1',
      't_seconds_bucket{route="/x",status="200",le="0.1"} 2',
      't_seconds_bucket{route="/x",status="200",le="+Inf"} 3',
      't_seconds_sum{route="/x",status="200"} 3.055',
      't_seconds_count{route="/x",status="200"} 3',
      't_seconds_bucket{route="/y",status="500",le="0.01"} 0',
      't_seconds_bucket{route="/y",status="500",le="0.1"} 1',
      't_seconds_count{route="/y",status="500"} 1',
    ])
      expect(text.split('\n')).toContain(line);
  });
});
