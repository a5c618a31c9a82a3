// For the TypeORM CLI (migration:generate) only: exactly one exported DataSource (the CLI refuses a file with more).
import { createDataSource } from './data-source';

export const dataSource = createDataSource({
  url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
});
