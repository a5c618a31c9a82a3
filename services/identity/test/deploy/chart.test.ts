import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config';
import { renderChart } from './helm-render';
import { CHART_DIR, KNOWN_ENV, parseDocs, read } from './repo';

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are untyped YAML, read field by field
type Obj = Record<string, any>;

const schema = JSON.parse(read('deploy/helm/identity/values.schema.json'));
const defaults = (): Obj => parse(read('deploy/helm/identity/values.yaml'));
const validator = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);

/** Renders the chart and returns every manifest, failing on a YAML error or a missing `.Values` path. */
function manifests(values: Obj): Obj[] {
  const { files, missingValues } = renderChart(CHART_DIR, values);
  expect(missingValues).toEqual([]);
  return Object.entries(files)
    .filter(([name]) => name.endsWith('.yaml'))
    .flatMap(([name, text]) => parseDocs(text, name));
}

/** The values an operator gives at install: the Secret's name and the image they built and pushed. */
const installable = (patch: (v: Obj) => void = () => {}) => {
  const v = defaults();
  v.secrets.existingSecret = 'identity-secrets';
  v.image.repository = 'registry.example.com/identity';
  v.image.tag = '1.4.0';
  v.console.image.repository = 'registry.example.com/identity-console';
  patch(v);
  return v;
};

const everything = () =>
  installable((v) => {
    v.ingress.enabled = true;
    v.ingress.tlsSecretName = 'identity-tls';
    v.console.enabled = true;
    v.metrics.serviceMonitor.enabled = true;
    v.config = { rateLimit: { global: { windowSec: 60, max: 100 } } };
    v.extraEnv = { FEATURE_ADMIN: 'false' };
    v.settings.trustedOrigins = ['https://app.example.com'];
    v.hostedPages = {
      ...v.hostedPages,
      enabled: true,
      productName: 'Acme',
      accentColor: '#0a7d3b',
      supportUrl: 'https://acme.example/help',
    };
  });

const kinds = (docs: Obj[]) => docs.map((d) => `${d.kind}/${d.metadata.name}`).sort();
const byName = (docs: Obj[], kind: string, suffix: string) =>
  docs.find((d) => d.kind === kind && d.metadata.name.endsWith(suffix)) as Obj;
const podSpec = (d: Obj): Obj => (d.kind === 'CronJob' ? d.spec.jobTemplate.spec : d.spec).template.spec;

describe('values.yaml and values.schema.json', () => {
  it('the default values validate against the schema', () => {
    expect(validator(defaults())).toBe(true);
    expect(validator.errors ?? []).toEqual([]);
  });

  it.each<[string, (v: Obj) => void]>([
    ['an unknown log level', (v) => (v.settings.logLevel = 'loud')],
    ['a misspelt top-level key', (v) => (v.replicaCount = 3)],
    ['a negative replica count', (v) => (v.api.replicas = -1)],
    ['a PUBLIC_URL with a path', (v) => (v.settings.publicUrl = 'https://id.example.com/auth')],
    ['a string where a number belongs', (v) => (v.settings.shutdownDrainMs = '5s')],
    ['a worker grace period shorter than its 25 s stop', (v) => (v.worker.terminationGracePeriodSeconds = 10)],
    ['an unknown service type', (v) => (v.service.type = 'Headless')],
    ['a secret entry without a key', (v) => (v.secrets.extra = [{ name: 'GOOGLE_CLIENT_SECRET', secret: 's' }])],
    ['a hosted pages colour that is not #rrggbb', (v) => (v.hostedPages.accentColor = 'green')],
    ['a hosted pages language the service does not know', (v) => (v.hostedPages.defaultLanguage = 'KLINGON')],
    ['a hosted pages link that is neither a URL nor a path', (v) => (v.hostedPages.termsUrl = 'javascript:alert(1)')],
  ])('refuses %s', (_what, patch) => {
    const values = defaults();
    patch(values);
    expect(validator(values)).toBe(false);
  });

  it('the schema covers every top-level key of values.yaml', () => {
    expect(Object.keys(schema.properties).sort()).toEqual(Object.keys(defaults()).sort());
  });
});

describe('chart templates', () => {
  const templates = readdirSync(join(CHART_DIR, 'templates'));

  it.each(templates)('%s has balanced {{ }}', (name) => {
    const text = readFileSync(join(CHART_DIR, 'templates', name), 'utf8');
    expect(text.split('{{').length).toBe(text.split('}}').length);
  });

  it('Chart.yaml is a v2 application chart', () => {
    const chart = parse(read('deploy/helm/identity/Chart.yaml'));
    expect(chart).toMatchObject({ apiVersion: 'v2', name: 'identity', type: 'application' });
    expect(chart.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('refuses to render without secrets.existingSecret', () => {
    const noSecret = installable((v) => (v.secrets.existingSecret = ''));
    expect(() => renderChart(CHART_DIR, noSecret)).toThrow(/secrets.existingSecret is required/);
  });

  it('refuses to render until image.repository names an image the operator built and pushed', () => {
    const unset = defaults();
    unset.secrets.existingSecret = 'identity-secrets';
    // The defaults name no registry: an install as documented must say where its images are.
    expect(unset.image.repository).toBe('');
    expect(unset.console.image.repository).toBe('');
    expect(() => renderChart(CHART_DIR, unset)).toThrow(
      /image\.repository is required: build deploy\/Dockerfile, push it to a registry the cluster pulls from/,
    );
    expect(validator(unset)).toBe(true); // the schema lets it through: the template's message is the clear one
  });

  it('refuses console.enabled until console.image.repository is set, and needs it only then', () => {
    const noConsoleImage = installable((v) => {
      v.console.image.repository = '';
    });
    expect(kinds(manifests(noConsoleImage))).not.toContain('Deployment/rel-identity-console');
    noConsoleImage.console.enabled = true;
    expect(() => renderChart(CHART_DIR, noConsoleImage)).toThrow(
      /console\.image\.repository is required when console\.enabled: build deploy\/console\.Dockerfile/,
    );
  });

  it('every pod runs the images the values name, tagged image.tag or the chart appVersion', () => {
    const appVersion = parse(read('deploy/helm/identity/Chart.yaml')).appVersion;
    const images = (values: Obj) =>
      manifests(values)
        .filter((d) => ['Deployment', 'Job', 'CronJob'].includes(d.kind))
        .map((d) => `${d.metadata.name} ${podSpec(d).containers[0].image}`)
        .sort();
    expect(images(everything())).toEqual([
      'rel-identity-api registry.example.com/identity:1.4.0',
      `rel-identity-console registry.example.com/identity-console:${appVersion}`,
      'rel-identity-events-prune registry.example.com/identity:1.4.0',
      'rel-identity-migrate registry.example.com/identity:1.4.0',
      'rel-identity-words-prune registry.example.com/identity:1.4.0',
      'rel-identity-worker registry.example.com/identity:1.4.0',
    ]);
    expect(images(installable((v) => (v.image.tag = '')))).toContain(
      `rel-identity-api registry.example.com/identity:${appVersion}`,
    );
  });

  it('renders the defaults: API, worker, migration Job, words and events CronJobs, Service, HPA, PDB; optional parts off', () => {
    const docs = manifests(installable());
    for (const d of docs) expect(d).toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String) });
    expect(kinds(docs)).toEqual([
      'CronJob/rel-identity-events-prune',
      'CronJob/rel-identity-words-prune',
      'Deployment/rel-identity-api',
      'Deployment/rel-identity-worker',
      'HorizontalPodAutoscaler/rel-identity-api',
      'Job/rel-identity-migrate',
      'PodDisruptionBudget/rel-identity-api',
      'Service/rel-identity',
    ]);
  });

  it('renders every optional part when enabled', () => {
    expect(kinds(manifests(everything()))).toEqual([
      'ConfigMap/rel-identity-config',
      'CronJob/rel-identity-events-prune',
      'CronJob/rel-identity-words-prune',
      'Deployment/rel-identity-api',
      'Deployment/rel-identity-console',
      'Deployment/rel-identity-worker',
      'HorizontalPodAutoscaler/rel-identity-api',
      'Ingress/rel-identity',
      'Job/rel-identity-migrate',
      'PodDisruptionBudget/rel-identity-api',
      'Service/rel-identity',
      'Service/rel-identity-console',
      'ServiceMonitor/rel-identity',
    ]);
  });

  it('NOTES.txt renders, naming the images', () => {
    const notes = renderChart(CHART_DIR, everything()).files['NOTES.txt'];
    expect(notes).toContain('/api/auth/health/ready');
    expect(notes).toContain('registry.example.com/identity:1.4.0 (API, worker, migrations)');
    expect(notes).toContain('image registry.example.com/identity-console:');
  });

  it('every pod is non-root, seccomp RuntimeDefault, read-only root with /tmp on an emptyDir, no capabilities', () => {
    const workloads = manifests(everything()).filter((d) => ['Deployment', 'Job', 'CronJob'].includes(d.kind));
    expect(workloads).toHaveLength(6);
    for (const w of workloads) {
      const spec = podSpec(w);
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
      expect(spec.automountServiceAccountToken).toBe(false);
      expect(spec.volumes).toContainEqual(expect.objectContaining({ name: 'tmp', emptyDir: expect.any(Object) }));
      for (const c of spec.containers) {
        expect(c.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        expect(c.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
        expect(c.resources.requests).toBeDefined();
        expect(c.resources.limits.memory).toBeDefined();
      }
    }
  });

  it('API, worker, migration Job and words CronJob run one image with the package scripts as commands', () => {
    const docs = manifests(installable());
    const scripts = JSON.parse(read('services/identity/package.json')).scripts;
    const container = (d: Obj) => podSpec(d).containers[0];
    const api = container(byName(docs, 'Deployment', '-api'));
    const worker = container(byName(docs, 'Deployment', '-worker'));
    const job = container(byName(docs, 'Job', '-migrate'));
    const prune = container(byName(docs, 'CronJob', '-words-prune'));
    expect(new Set([api.image, worker.image, job.image, prune.image]).size).toBe(1);
    expect(api.command.join(' ')).toBe(scripts.start);
    expect(worker.command.join(' ')).toBe(scripts.worker);
    expect(job.command.join(' ')).toBe(scripts.migrate);
    expect(prune.command.join(' ')).toBe(scripts['words:prune']);
  });

  it('the words CronJob runs weekly one at a time, needs only the Secret, and can be turned off', () => {
    const cron = byName(manifests(installable()), 'CronJob', '-words-prune');
    expect(cron.spec).toMatchObject({ schedule: '17 3 * * 0', concurrencyPolicy: 'Forbid' });
    expect(podSpec(cron).restartPolicy).toBe('Never');
    expect(podSpec(cron).volumes.map((v: Obj) => v.name)).toEqual(['tmp']);
    const off = manifests(installable((v) => (v.wordsPrune.enabled = false)));
    expect(off.filter((d) => d.kind === 'CronJob' && d.metadata.name.endsWith('-words-prune'))).toEqual([]);
    expect(validator(installable((v) => (v.wordsPrune.schedule = 'weekly')))).toBe(false);
  });

  it('the events CronJob runs events:prune daily one at a time with the retention age, and can be turned off', () => {
    const docs = manifests(installable());
    const scripts = JSON.parse(read('services/identity/package.json')).scripts;
    const cron = byName(docs, 'CronJob', '-events-prune');
    expect(cron.spec).toMatchObject({ schedule: '41 2 * * *', concurrencyPolicy: 'Forbid' });
    const c = podSpec(cron).containers[0];
    expect(c.command.join(' ')).toBe(scripts['events:prune']);
    expect(c.image).toBe(podSpec(byName(docs, 'Deployment', '-api')).containers[0].image);
    expect(c.env).toContainEqual({ name: 'AUDIT_RETENTION_DAYS', value: '365' });
    expect(podSpec(cron).volumes.map((v: Obj) => v.name)).toEqual(['tmp']);
    const days = manifests(installable((v) => (v.eventsPrune.retentionDays = 90)));
    expect(podSpec(byName(days, 'CronJob', '-events-prune')).containers[0].env).toContainEqual({
      name: 'AUDIT_RETENTION_DAYS',
      value: '90',
    });
    const off = manifests(installable((v) => (v.eventsPrune.enabled = false)));
    expect(off.filter((d) => d.kind === 'CronJob').map((d) => d.metadata.name)).toEqual(['rel-identity-words-prune']);
    expect(validator(installable((v) => (v.eventsPrune.retentionDays = 0)))).toBe(false);
  });

  it('the migration Job is a pre-install/pre-upgrade hook, deleted on success and before the next run', () => {
    const job = byName(manifests(installable()), 'Job', '-migrate');
    expect(job.metadata.annotations).toMatchObject({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    expect(podSpec(job).restartPolicy).toBe('Never');
    // Hooks run before the chart's ConfigMap exists: the Job must not need it.
    expect(podSpec(job).volumes.map((v: Obj) => v.name)).toEqual(['tmp']);
  });

  it('API probes hit the health routes; the grace period covers the drain', () => {
    const values = installable();
    const docs = manifests(values);
    const api = byName(docs, 'Deployment', '-api');
    const c = podSpec(api).containers[0];
    expect(c.livenessProbe.httpGet).toEqual({ path: '/api/auth/health/live', port: 'http' });
    expect(c.readinessProbe.httpGet).toEqual({ path: '/api/auth/health/ready', port: 'http' });
    expect(c.ports).toEqual([{ name: 'http', containerPort: 3000, protocol: 'TCP' }]);
    expect(podSpec(api).terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(
      values.settings.shutdownDrainMs + 20_000,
    );
    expect(api.spec.replicas).toBeUndefined(); // the HPA owns the replica count
    expect(api.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  it('secrets come from the existing Secret; every variable set is one the service reads', () => {
    const docs = manifests(everything());
    for (const w of docs.filter(
      (d) => ['Deployment', 'Job'].includes(d.kind) && !d.metadata.name.endsWith('console'),
    )) {
      const env: Obj[] = podSpec(w).containers[0].env;
      for (const e of env) expect(KNOWN_ENV).toContain(e.name);
      const fromSecret: Record<string, Obj> = Object.fromEntries(
        env.filter((e) => e.valueFrom).map((e) => [e.name, e.valueFrom.secretKeyRef]),
      );
      expect(Object.keys(fromSecret).sort()).toEqual([
        'AUTH_SECRET',
        'DATABASE_URL',
        'REDIS_URL',
        'SERVICE_API_KEY',
        'SMTP_URL',
      ]);
      for (const ref of Object.values(fromSecret)) expect(ref.name).toBe('identity-secrets');
      expect(env).toContainEqual({ name: 'MIGRATE_ON_START', value: 'false' });
      expect(env).toContainEqual({ name: 'NODE_ENV', value: 'production' });
    }
  });

  it('the environment and config file the chart sets (with the Secret filled in) load as a valid production configuration', () => {
    const values = everything();
    const docs = manifests(values);
    const api = byName(docs, 'Deployment', '-api');
    const secret: Record<string, string> = {
      AUTH_SECRET: 'x'.repeat(48),
      DATABASE_URL: 'postgres://identity:pw@postgres:5432/identity',
      REDIS_URL: 'redis://redis:6379/0',
      SMTP_URL: 'smtp://mail.example.com:587',
      SERVICE_API_KEY: 'k'.repeat(40),
    };
    const env = Object.fromEntries(
      podSpec(api).containers[0].env.map((e: Obj) => [e.name, e.valueFrom ? secret[e.name] : e.value]),
    );
    // The ConfigMap's file, where the pod would find it mounted.
    const dir = mkdtempSync(join(tmpdir(), 'identity-chart-'));
    env.CONFIG_FILE = join(dir, 'config.yaml');
    writeFileSync(env.CONFIG_FILE, byName(docs, 'ConfigMap', '-config').data['config.yaml']);
    const config = (() => {
      try {
        return loadConfig(env);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })();
    expect(config.rateLimit.global).toEqual(values.config.rateLimit.global);
    expect(config).toMatchObject({ env: 'production', port: 3000, basePath: values.basePath, shutdownDrainMs: 5000 });
    expect(config.trustedOrigins).toEqual(values.settings.trustedOrigins);
    expect(config.hostedPages).toMatchObject({
      enabled: true,
      path: '/auth',
      productName: 'Acme',
      colors: { accent: '#0a7d3b' },
      links: { support: 'https://acme.example/help' },
      defaultLanguage: 'ENG',
    });
  });

  it('the hosted pages: off by default with no link set; on, every pod gets HOSTED_PAGES_* (empty values stay unset)', () => {
    const envOf = (docs: Obj[], kind: string, suffix: string) =>
      Object.fromEntries(podSpec(byName(docs, kind, suffix)).containers[0].env.map((e: Obj) => [e.name, e.value]));
    const off = envOf(manifests(installable()), 'Deployment', '-api');
    expect(off).toMatchObject({
      HOSTED_PAGES_ENABLED: 'false',
      HOSTED_PAGES_PATH: '/auth',
      HOSTED_PAGES_PRODUCT_NAME: 'Identity',
      HOSTED_PAGES_DEFAULT_LANGUAGE: 'ENG',
    });
    for (const name of ['LOGO_URL', 'ACCENT_COLOR', 'SUPPORT_URL', 'TERMS_URL', 'PRIVACY_URL'])
      expect(off[`HOSTED_PAGES_${name}`]).toBeUndefined();
    const docs = manifests(everything());
    for (const [kind, suffix] of [
      ['Deployment', '-api'],
      ['Deployment', '-worker'],
      ['Job', '-migrate'],
    ])
      expect(envOf(docs, kind, suffix)).toMatchObject({
        HOSTED_PAGES_ENABLED: 'true',
        HOSTED_PAGES_PRODUCT_NAME: 'Acme',
        HOSTED_PAGES_ACCENT_COLOR: '#0a7d3b',
        HOSTED_PAGES_SUPPORT_URL: 'https://acme.example/help',
      });
    expect(renderChart(CHART_DIR, everything()).files['NOTES.txt']).toContain(
      'https://identity.example.com/auth/sign-in',
    );
  });

  it('the config file: a ConfigMap mounted read-only and named by CONFIG_FILE on the API and the worker', () => {
    const values = everything();
    const docs = manifests(values);
    const cm = byName(docs, 'ConfigMap', '-config');
    expect(parse(cm.data['config.yaml'])).toEqual(values.config);
    for (const suffix of ['-api', '-worker']) {
      const spec = podSpec(byName(docs, 'Deployment', suffix));
      expect(spec.containers[0].env).toContainEqual({ name: 'CONFIG_FILE', value: '/etc/identity/config.yaml' });
      expect(spec.containers[0].volumeMounts).toContainEqual({
        name: 'config',
        mountPath: '/etc/identity',
        readOnly: true,
      });
      expect(spec.volumes).toContainEqual({ name: 'config', configMap: { name: cm.metadata.name } });
    }
  });

  it('the Ingress sends the base path and the hosted pages to the API and / to the console on one host', () => {
    const ingress = byName(manifests(everything()), 'Ingress', 'identity');
    const paths = ingress.spec.rules[0].http.paths.map((p: Obj) => [p.path, p.backend.service.name]);
    expect(paths).toEqual([
      ['/api/auth', 'rel-identity'],
      ['/auth', 'rel-identity'],
      ['/', 'rel-identity-console'],
    ]);
    const withoutPages = byName(
      manifests(installable((v) => (v.ingress.enabled = true))),
      'Ingress',
      'identity',
    ).spec.rules[0].http.paths.map((p: Obj) => p.path);
    expect(withoutPages).toEqual(['/api/auth']);
    expect(ingress.spec.tls).toEqual([{ hosts: ['identity.example.com'], secretName: 'identity-tls' }]);
  });

  it('the Service and ServiceMonitor select the API pods only', () => {
    const docs = manifests(everything());
    const apiLabels = byName(docs, 'Deployment', '-api').spec.template.metadata.labels;
    expect(byName(docs, 'Service', 'rel-identity').spec.selector).toEqual(apiLabels);
    const monitor = byName(docs, 'ServiceMonitor', 'identity');
    expect(monitor.spec.selector.matchLabels).toEqual(apiLabels);
    expect(monitor.spec.endpoints[0]).toMatchObject({ port: 'http', path: '/metrics' });
  });
});
