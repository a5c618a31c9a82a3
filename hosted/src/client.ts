import { passkeyClient } from '@better-auth/passkey/client';
import { createAuthClient } from 'better-auth/client';
import { emailOTPClient, magicLinkClient, twoFactorClient } from 'better-auth/client/plugins';

/**
 * The published better-auth client, as any product frontend uses it, on the API named by config.json, with the
 * second factor's routes (`client.twoFactor.*`) and passkeys' (`client.signIn.passkey`, `client.passkey.*`, from
 * `@better-auth/passkey/client`), the mailed sign-in link's (`client.signIn.magicLink`, `client.magicLink.verify`) and code's
 * (`client.emailOtp.sendVerificationOtp`, `client.signIn.emailOtp`).
 * The sign-in page reads the two-factor answer itself and goes to the second-factor
 * step, so the plugin is given no redirect of its own.
 */
export const makeClient = (baseURL: string) =>
  createAuthClient({
    baseURL,
    fetchOptions: { credentials: 'include' },
    plugins: [twoFactorClient(), passkeyClient(), magicLinkClient(), emailOTPClient()],
  });

export type AuthClient = ReturnType<typeof makeClient>;

/** An error answer of the API as the client hands it back: the catalogue's code and message. */
export interface ApiFailure {
  status?: number;
  code?: string;
  message?: string;
}

/** A client call's outcome: its data, or the API's refusal. */
export interface Outcome {
  data: unknown;
  error: ApiFailure | null;
}

/** Runs a client call; a network failure becomes `{ error: { code: 'NETWORK' } }` rather than a throw. */
export async function call(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const result = (await run()) as { data?: unknown; error?: ApiFailure | null };
    return { data: result.data ?? null, error: result.error ?? null };
  } catch {
    return { data: null, error: { code: 'NETWORK' } };
  }
}
