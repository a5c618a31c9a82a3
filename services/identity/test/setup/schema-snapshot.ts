import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../../src/db/migrate';
import { describeSchema, renderSchema, type SchemaDescription } from './schema-description';

/**
 * The committed description of the schema the migrations make (src/db/schema.snapshot.txt):
 * test/contract/migrations.test.ts fails when the migrations make anything else, and `npm run schema:snapshot`
 * (this file run as a script) writes it again from a database of its own.
 */
export const SNAPSHOT_PATH = resolve(__dirname, '../../src/db/schema.snapshot.txt');

const HEADER = `# The schema that every migration in src/db/migrations leaves, read from PostgreSQL's catalogs (what is described
# and how it is normalized: test/setup/schema-description.ts). Written by \`npm run schema:snapshot\`, never by hand;
# test/contract/migrations.test.ts fails when the migrations make anything else. A change here comes with the
# migration that makes it, in the same commit.
`;

/** The snapshot's text for a description. */
export const snapshotText = (description: SchemaDescription): string => `${HEADER}\n${renderSchema(description)}`;

export const readSnapshot = (): string => readFileSync(SNAPSHOT_PATH, 'utf8');

/** The description of the database at `url`, read on a connection of its own. */
export async function describeDatabase(url: string): Promise<SchemaDescription> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await describeSchema(async (text) => (await client.query(text)).rows);
  } finally {
    await client.end();
  }
}

/** Creates an empty database beside `adminUrl`'s, runs every migration on it, writes the snapshot, drops it. */
async function writeSnapshot(adminUrl: string): Promise<void> {
  const name = `identity_schema_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await runMigrations({ url: url.toString() });
    writeFileSync(SNAPSHOT_PATH, snapshotText(await describeDatabase(url.toString())));
    console.log(`wrote ${SNAPSHOT_PATH}`);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

if (require.main === module)
  writeSnapshot(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres').catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
