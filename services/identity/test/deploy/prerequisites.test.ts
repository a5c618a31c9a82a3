import { read } from './repo';

/**
 * What the tests need from the machine is said twice, in the README (for someone who only wants `make test`) and in
 * CONTRIBUTING: both name the same Debian packages, as `Debian packages: \`a\`, \`b\` and \`c\``, and `.ci/run`
 * installs only packages they name.
 */
function debianPackages(file: string): string[] {
  const list = /Debian packages: ((?:`[\w.+-]+`(?:,\s+|\s+and\s+)?)+)/.exec(read(file))?.[1] ?? '';
  return [...list.matchAll(/`([\w.+-]+)`/g)].map(([, name]) => name).sort();
}

describe('test prerequisites', () => {
  it('the README and CONTRIBUTING name the same Debian packages', () => {
    const readme = debianPackages('README.md');
    expect(readme).toEqual(expect.arrayContaining(['chromium', 'faketime', 'postgresql', 'redis-server']));
    expect(debianPackages('CONTRIBUTING.md')).toEqual(readme);
  });

  it('.ci/run installs only packages they name', () => {
    const installed = [...read('.ci/run').matchAll(/missing\+=\(([\w.+-]+)\)/g)].map(([, name]) => name);
    expect(installed.length).toBeGreaterThan(0);
    expect(debianPackages('README.md')).toEqual(expect.arrayContaining(installed));
  });
});
