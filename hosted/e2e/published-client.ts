import { passkeyClient } from '@better-auth/passkey/client';
import { createAuthClient } from 'better-auth/client';

/**
 * What a product frontend writes to use passkeys (docs/two-factor.md, Passkeys): the published better-auth client
 * with the published `passkeyClient()`, and nothing of this repository. passkeys.e2e.test.ts bundles this file
 * and loads it in a page on a trusted origin of the product's.
 */
export const makeAuth = (baseURL: string) =>
  createAuthClient({ baseURL, fetchOptions: { credentials: 'include' }, plugins: [passkeyClient()] });

export type Auth = ReturnType<typeof makeAuth>;
