import { resolve } from 'node:path';

/**
 * The repository root: this file is services/identity/{src,dist}/config/paths.*, four levels down. Default paths
 * (data, dev outbox, console bundle) resolve from here, not from the working directory: npm runs workspace scripts
 * (`npm start`, `make run`) in services/identity, so a relative default would land in the wrong place.
 */
export const REPO_ROOT = resolve(__dirname, '../../../..');
