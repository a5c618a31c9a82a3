import { bool, first, obj, oidcProfile, type ProviderDefinition, str } from './types';

/** Named providers that speak OpenID Connect (id tokens with JWKS): endpoints and scopes from their docs. */
export const OIDC_PROVIDERS = {
  // developer.apple.com "Sign in with Apple REST API": no user-info endpoint; the name comes once, in `user`.
  apple: {
    authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
    tokenEndpoint: 'https://appleid.apple.com/auth/token',
    issuer: 'https://appleid.apple.com',
    jwksUri: 'https://appleid.apple.com/auth/keys',
    scopes: ['name', 'email'],
    responseMode: 'form_post',
    mapProfile: ({ claims, callbackUser }) => {
      const id = str(claims?.sub);
      if (!id) return null;
      const name = obj(obj(callbackUser).name);
      const email = str(claims?.email);
      return {
        id,
        email,
        emailVerified: bool(claims?.email_verified),
        name: first([name.firstName, name.lastName].filter(Boolean).join(' '), email) ?? id,
        image: null,
      };
    },
  },
  // developers.google.com/identity/openid-connect/openid-connect
  google: {
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    userInfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
    issuer: 'https://accounts.google.com',
    jwksUri: 'https://www.googleapis.com/oauth2/v3/certs',
    scopes: ['openid', 'email', 'profile'],
    authParams: { access_type: 'offline', include_granted_scopes: 'true' },
    mapProfile: oidcProfile,
  },
  // learn.microsoft.com identity platform v2.0; the tenant ("common" by default) is part of every URL.
  microsoft: {
    authorizationEndpoint: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/authorize',
    tokenEndpoint: 'https://login.microsoftonline.com/{tenant}/oauth2/v2.0/token',
    userInfoEndpoint: 'https://graph.microsoft.com/oidc/userinfo',
    issuer: 'https://login.microsoftonline.com/{tenant}/v2.0',
    jwksUri: 'https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys',
    scopes: ['openid', 'profile', 'email', 'User.Read', 'offline_access'],
    mapProfile: (source) => {
      const doc = { ...source.claims, ...source.userInfo };
      const profile = oidcProfile(source);
      if (!profile) return null;
      // Entra does not send email_verified; xms_edov ("email domain owner verified") is its signal.
      return { ...profile, email: first(doc.email, doc.preferred_username), emailVerified: bool(doc.xms_edov) };
    },
  },
  // huggingface.co/docs/hub/oauth
  huggingface: {
    authorizationEndpoint: 'https://huggingface.co/oauth/authorize',
    tokenEndpoint: 'https://huggingface.co/oauth/token',
    userInfoEndpoint: 'https://huggingface.co/oauth/userinfo',
    issuer: 'https://huggingface.co',
    jwksUri: 'https://huggingface.co/oauth/jwks',
    scopes: ['openid', 'profile', 'email'],
    mapProfile: oidcProfile,
  },
  // dev.twitch.tv/docs/authentication/getting-tokens-oidc: claims must be asked for explicitly.
  twitch: {
    authorizationEndpoint: 'https://id.twitch.tv/oauth2/authorize',
    tokenEndpoint: 'https://id.twitch.tv/oauth2/token',
    userInfoEndpoint: 'https://id.twitch.tv/oauth2/userinfo',
    issuer: 'https://id.twitch.tv/oauth2',
    jwksUri: 'https://id.twitch.tv/oauth2/keys',
    scopes: ['openid', 'user:read:email'],
    authParams: {
      claims: JSON.stringify({
        id_token: { email: null, email_verified: null },
        userinfo: { email: null, email_verified: null, picture: null, preferred_username: null },
      }),
    },
    mapProfile: oidcProfile,
  },
  // learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
  linkedin: {
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    userInfoEndpoint: 'https://api.linkedin.com/v2/userinfo',
    issuer: 'https://www.linkedin.com/oauth',
    jwksUri: 'https://www.linkedin.com/oauth/openid/jwks',
    scopes: ['openid', 'profile', 'email'],
    mapProfile: oidcProfile,
  },
  // create.roblox.com/docs/cloud/reference/oauth2: no email is ever shared.
  roblox: {
    authorizationEndpoint: 'https://apis.roblox.com/oauth/v1/authorize',
    tokenEndpoint: 'https://apis.roblox.com/oauth/v1/token',
    userInfoEndpoint: 'https://apis.roblox.com/oauth/v1/userinfo',
    issuer: 'https://apis.roblox.com/oauth/',
    jwksUri: 'https://apis.roblox.com/oauth/v1/certs',
    scopes: ['openid', 'profile'],
    mapProfile: (source) => {
      const profile = oidcProfile(source);
      const doc = { ...source.claims, ...source.userInfo };
      return profile && { ...profile, name: first(doc.nickname, doc.name, doc.preferred_username) ?? profile.id };
    },
  },
} satisfies Record<string, ProviderDefinition>;
