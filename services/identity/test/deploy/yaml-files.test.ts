import { listFiles, parseDocs, read } from './repo';

/** Plain YAML files (chart templates are Go templates: chart.test.ts renders them first). */
const files = [
  'docker-compose.yml',
  ...listFiles('deploy', /\.ya?ml$/).filter((f) => !f.includes('/templates/')),
  ...listFiles('.github', /\.ya?ml$/),
];

describe('YAML files parse', () => {
  it('finds the compose file, the chart and the CI workflow', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'docker-compose.yml',
        'deploy/helm/identity/Chart.yaml',
        'deploy/helm/identity/values.yaml',
        '.github/workflows/ci.yml',
      ]),
    );
  });

  it.each(files)('%s', (file) => {
    expect(parseDocs(read(file), file).length).toBeGreaterThan(0);
  });
});
