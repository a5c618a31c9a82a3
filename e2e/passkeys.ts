import { SoftwareAuthenticator } from '../services/identity/test/setup/webauthn';
import type { ApiReply } from './world';

export { SoftwareAuthenticator };

/** A world's `api` (e2e/world.ts): a call to the real service over HTTP, from the origin the world names. */
type Api = (path: string, init?: { body?: unknown; cookie?: string }) => Promise<ApiReply>;

/**
 * Registers a passkey for the signed-in user of `cookie` through the real service, as a browser on the device's
 * origin does: the options (which set the ceremony's challenge cookie), the device's answer (the service tests'
 * software authenticator, services/identity/test/setup/webauthn.ts), verify-registration. The device's origin must be
 * one the service's relying party accepts (PUBLIC_URL by default). Answers the new passkey; throws on a refusal.
 */
export async function addPasskey(
  api: Api,
  cookie: string,
  device: SoftwareAuthenticator,
  name: string,
): Promise<{ id: string; name: string | null; deviceType: string; backedUp: boolean }> {
  const options = await api('/passkey/generate-register-options', { cookie });
  if (options.status !== 200 || !options.cookie)
    throw new Error(`passkey options refused: ${options.status} ${JSON.stringify(options.body)}`);
  const response = device.create(options.body);
  const verified = await api('/passkey/verify-registration', {
    body: { response, name },
    cookie: `${cookie}; ${options.cookie}`,
  });
  if (verified.status !== 200)
    throw new Error(`passkey registration refused: ${verified.status} ${JSON.stringify(verified.body)}`);
  return verified.body;
}
