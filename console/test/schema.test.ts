import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const require = createRequire(import.meta.url);

it('src/api/schema.d.ts is what `npm run generate -w console` makes from ../openapi.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-schema-'));
  try {
    const out = join(dir, 'schema.d.ts');
    const cli = join(require.resolve('openapi-typescript/package.json'), '..', 'bin', 'cli.js');
    execFileSync(process.execPath, [cli, '../openapi.yaml', '-o', out], { stdio: 'pipe' });
    const committed = readFileSync('src/api/schema.d.ts', 'utf8');
    expect(committed === readFileSync(out, 'utf8'), 'schema.d.ts is stale: run `npm run generate -w console`').toBe(
      true,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
