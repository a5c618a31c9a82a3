import { bool, type Doc, first, obj, type ProviderDefinition, str } from './types';

const data = (doc: Doc | null): Doc => obj(doc?.data);

/** Named providers with plain OAuth 2 and a provider-specific profile API, as their docs describe them. */
export const OAUTH_PROVIDERS = {
  // discord.com/developers/docs/topics/oauth2 and /resources/user
  discord: {
    authorizationEndpoint: 'https://discord.com/oauth2/authorize',
    tokenEndpoint: 'https://discord.com/api/oauth2/token',
    userInfoEndpoint: 'https://discord.com/api/users/@me',
    scopes: ['identify', 'email'],
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.id);
      if (!u || !id) return null;
      const avatar = str(u.avatar);
      const image = avatar
        ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.${avatar.startsWith('a_') ? 'gif' : 'png'}`
        : `https://cdn.discordapp.com/embed/avatars/${Number(BigInt(id) >> 22n) % 6}.png`;
      return {
        id,
        email: str(u.email),
        emailVerified: bool(u.verified),
        name: first(u.global_name, u.username) ?? id,
        image,
      };
    },
  },
  // developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow; Limited Login issues id tokens.
  facebook: {
    authorizationEndpoint: 'https://www.facebook.com/v21.0/dialog/oauth',
    tokenEndpoint: 'https://graph.facebook.com/v21.0/oauth/access_token',
    userInfoEndpoint: 'https://graph.facebook.com/me?fields=id,name,email,picture.type(large)',
    issuer: 'https://www.facebook.com',
    jwksUri: 'https://limited.facebook.com/.well-known/oauth/openid/jwks/',
    scopes: ['email', 'public_profile'],
    mapProfile: ({ userInfo, claims }) => {
      const u = userInfo ?? {};
      const id = first(u.id, claims?.sub);
      if (!id) return null;
      return {
        id,
        email: first(u.email, claims?.email),
        // Facebook only returns confirmed addresses; it sends no verified flag.
        emailVerified: false,
        name: first(u.name, claims?.name) ?? id,
        image: first(obj(data(obj(u.picture) as Doc)).url, claims?.picture),
      };
    },
  },
  // docs.github.com/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps; emails from /user/emails.
  github: {
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userInfoEndpoint: 'https://api.github.com/user',
    userInfoExtras: { emails: 'https://api.github.com/user/emails' },
    scopes: ['read:user', 'user:email'],
    mapProfile: ({ userInfo: u, extra }) => {
      const id = str(u?.id);
      if (!u || !id) return null;
      const emails = Array.isArray(extra.emails) ? (extra.emails as Doc[]) : [];
      const primary = emails.find((e) => e.primary) ?? emails.find((e) => str(e.email) === str(u.email));
      const email = first(primary?.email, u.email);
      const verified = emails.find((e) => str(e.email) === email);
      return {
        id,
        email,
        emailVerified: bool(verified?.verified),
        name: first(u.name, u.login) ?? id,
        image: str(u.avatar_url),
      };
    },
  },
  // developer.spotify.com/documentation/web-api/reference/get-current-users-profile
  spotify: {
    authorizationEndpoint: 'https://accounts.spotify.com/authorize',
    tokenEndpoint: 'https://accounts.spotify.com/api/token',
    userInfoEndpoint: 'https://api.spotify.com/v1/me',
    scopes: ['user-read-email'],
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.id);
      if (!u || !id) return null;
      const images = Array.isArray(u.images) ? (u.images as Doc[]) : [];
      return {
        id,
        email: str(u.email),
        emailVerified: false,
        name: first(u.display_name) ?? id,
        image: str(images[0]?.url),
      };
    },
  },
  // docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code (PKCE required)
  twitter: {
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: 'https://api.x.com/2/oauth2/token',
    userInfoEndpoint: 'https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email',
    scopes: ['users.read', 'tweet.read', 'offline.access', 'users.email'],
    tokenAuth: 'basic',
    mapProfile: ({ userInfo }) => {
      const u = data(userInfo);
      const id = str(u.id);
      if (!id) return null;
      const confirmed = str(u.confirmed_email);
      return {
        id,
        email: first(confirmed, u.email),
        emailVerified: Boolean(confirmed),
        name: first(u.name, u.username) ?? id,
        image: str(u.profile_image_url),
      };
    },
  },
  // developers.dropbox.com/oauth-guide; users/get_current_account is an RPC POST.
  dropbox: {
    authorizationEndpoint: 'https://www.dropbox.com/oauth2/authorize',
    tokenEndpoint: 'https://api.dropboxapi.com/oauth2/token',
    userInfoEndpoint: 'https://api.dropboxapi.com/2/users/get_current_account',
    userInfoMethod: 'POST',
    scopes: ['account_info.read'],
    authParams: { token_access_type: 'offline' },
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.account_id);
      if (!u || !id) return null;
      return {
        id,
        email: str(u.email),
        emailVerified: bool(u.email_verified),
        name: first(obj(u.name).display_name) ?? id,
        image: str(u.profile_photo_url),
      };
    },
  },
  // docs.kick.com/getting-started/generating-tokens-oauth2-flow and /apis/users
  kick: {
    authorizationEndpoint: 'https://id.kick.com/oauth/authorize',
    tokenEndpoint: 'https://id.kick.com/oauth/token',
    userInfoEndpoint: 'https://api.kick.com/public/v1/users',
    scopes: ['user:read'],
    mapProfile: ({ userInfo }) => {
      const list = Array.isArray(userInfo?.data) ? (userInfo.data as Doc[]) : [];
      const u = list[0];
      const id = str(u?.user_id);
      if (!u || !id) return null;
      return {
        id,
        email: str(u.email),
        emailVerified: false,
        name: first(u.name) ?? id,
        image: str(u.profile_picture),
      };
    },
  },
} satisfies Record<string, ProviderDefinition>;
