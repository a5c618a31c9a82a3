import { buildApp } from './app';
import { loadConfig } from './config';
import { createContext } from './context';

/**
 * The OpenAPI document from the route schemas, built offline with the default configuration (no database, no
 * Redis), so the committed openapi.yaml does not depend on the machine that generated it. The sign-in methods that
 * are off by default (docs/passwordless.md) and the OpenID provider are turned on here, so the document describes
 * every route the service can serve.
 */
export async function generateOpenApi(): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    MAGIC_LINK_ENABLED: 'true',
    EMAIL_OTP_ENABLED: 'true',
    // the OpenID provider's own routes (docs/oidc-provider.md); it needs the hosted pages' settings, not their files,
    // which need not be built here: they are not served in this build
    OIDC_PROVIDER_ENABLED: 'true',
    HOSTED_PAGES_ENABLED: 'true',
  });
  config.hostedPages.enabled = false;
  const ctx = await createContext(config, { offline: true });
  const app = await buildApp(ctx, { logger: false });
  try {
    await app.ready();
    return app.swagger({ yaml: true });
  } finally {
    await app.close();
    await ctx.close();
  }
}
