import { MIGRATIONS } from '../../../src/db/migrations';
import { migrationName } from '../../../src/db/pending-migrations';
import { runCliWith } from '../../setup/cli-process';
import { scratchDatabase } from '../../setup/scratch-database';

/** `cli migrate` and `cli migrate:status` on an empty database: they name what is pending, then what was applied. */
const databaseUrl = scratchDatabase('migrate_cli');
const cli = (command: string) => runCliWith({ DATABASE_URL: databaseUrl() }, command);

it('reports the pending migrations, applies them all, then finds none', async () => {
  const names = MIGRATIONS.map(migrationName);
  const before = await cli('migrate:status');
  expect([before.code, before.stdout.trim()]).toEqual([0, `pending migrations exist: ${names.join(', ')}`]);

  const applied = await cli('migrate');
  expect([applied.code, applied.stdout.trim()]).toEqual([0, `applied: ${names.join(', ')}`]);

  const after = await cli('migrate:status');
  expect([after.code, after.stdout.trim()]).toEqual([0, 'schema is up to date']);
  const again = await cli('migrate');
  expect([again.code, again.stdout.trim()]).toEqual([0, 'no pending migrations']);
}, 90_000); // four CLI processes, each starting Node and connecting
