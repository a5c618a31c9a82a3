export { DEVELOPMENT_SECRET } from './defaults';
export { ENV_SETTINGS } from './env-settings';
export { ConfigError, type ConfigOverrides, loadConfig } from './load';
export type {
  Argon2Config,
  CaptchaConfig,
  Config,
  JwtConfig,
  SessionConfig,
  SocialConfig,
  SocialProviderConfig,
  TwoFactorConfig,
} from './schema';
