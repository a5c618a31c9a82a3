import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PUBLIC_URL } from '../../setup/app';
import { PASSWORD, uniqueEmail } from '../../setup/fixtures';

/**
 * SIGTERM under load: the instance keeps serving while readiness says "draining" (the balancer's cue to
 * stop sending), then finishes the requests in flight and exits 0. No request the balancer sent fails.
 */
let api: ApiProcess;
beforeAll(async () => {
  api = await spawnApi({ SHUTDOWN_DRAIN_MS: '1500' });
}, 60_000);
afterAll(() => api?.stop());

it('no request fails across a SIGTERM, and the process exits 0', async () => {
  const email = uniqueEmail('drain');
  const res = await fetch(`${api.base}/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify({ name: 'D', email, password: PASSWORD }),
  });
  const { token } = await res.json();
  let balancerSends = true;
  const outcomes: Array<number | string> = [];
  // Eight clients call get-session back to back while the balancer sends to this instance.
  const client = async () => {
    while (balancerSends) {
      const answer = await fetch(`${api.base}/get-session?disableCookieCache=true`, {
        headers: { authorization: `Bearer ${token}` },
      }).then(
        async (r) => (r.status === 200 && (await r.json())?.session.token === token ? 200 : r.status),
        (e: Error) => e.message,
      );
      outcomes.push(answer);
    }
  };
  // The balancer polls readiness and stops sending once it is no longer 200.
  const balancer = async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const status = await fetch(`${api.base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) {
        balancerSends = false;
        return status;
      }
    }
  };
  const clients = Array.from({ length: 8 }, client);
  const watching = balancer();
  await new Promise((r) => setTimeout(r, 500));
  const before = outcomes.length;
  api.child.kill('SIGTERM');
  expect(await watching).toBe(503);
  await Promise.all(clients);
  expect(await api.exited).toBe(0);
  expect(outcomes.length).toBeGreaterThan(before);
  expect(outcomes.filter((o) => o !== 200)).toEqual([]);
  expect(api.output()).toContain('draining');
}, 30_000);
