export { DEVELOPMENT_SECRET } from './defaults';
export { ENV_SETTINGS } from './env-settings';
export { ConfigError, type ConfigOverrides, loadConfig } from './load';
export { type RelyingParty, relyingParty } from './passkey';
export type {
  Argon2Config,
  CaptchaConfig,
  Config,
  EmailOtpConfig,
  JwtConfig,
  MagicLinkConfig,
  OidcClientConfig,
  OidcProviderConfig,
  PasskeyConfig,
  SessionConfig,
  SocialConfig,
  SocialProviderConfig,
  TwoFactorConfig,
} from './schema';
