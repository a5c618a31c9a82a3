import { bool, first, obj, type ProviderDefinition, str } from './types';

/** The remaining named providers (OAuth 2 with their own profile APIs). */
export const MORE_PROVIDERS = {
  // docs.gitlab.com/api/oauth2 and /api/users (GET /user); self-managed: override the endpoints.
  gitlab: {
    authorizationEndpoint: 'https://gitlab.com/oauth/authorize',
    tokenEndpoint: 'https://gitlab.com/oauth/token',
    userInfoEndpoint: 'https://gitlab.com/api/v4/user',
    scopes: ['read_user'],
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.id);
      if (!u || !id || u.state === 'blocked') return null;
      return {
        id,
        email: str(u.email),
        emailVerified: Boolean(str(u.confirmed_at)),
        name: first(u.name, u.username) ?? id,
        image: str(u.avatar_url),
      };
    },
  },
  // developers.tiktok.com/doc/login-kit-web and /doc/tiktok-api-v2-get-user-info: client_key, no email.
  tiktok: {
    authorizationEndpoint: 'https://www.tiktok.com/v2/auth/authorize/',
    tokenEndpoint: 'https://open.tiktokapis.com/v2/oauth/token/',
    userInfoEndpoint:
      'https://open.tiktokapis.com/v2/user/info/?fields=open_id,union_id,avatar_large_url,display_name,username',
    scopes: ['user.info.profile'],
    scopeSeparator: ',',
    clientIdParam: 'client_key',
    mapProfile: ({ userInfo }) => {
      const u = obj(obj(userInfo?.data).user);
      const id = str(u.open_id);
      if (!id) return null;
      return {
        id,
        email: null,
        emailVerified: false,
        name: first(u.display_name, u.username) ?? id,
        image: str(u.avatar_large_url),
      };
    },
  },
  // github.com/reddit-archive/reddit/wiki/OAuth2 and /api/v1/me: Basic client auth, no email.
  reddit: {
    authorizationEndpoint: 'https://www.reddit.com/api/v1/authorize',
    tokenEndpoint: 'https://www.reddit.com/api/v1/access_token',
    userInfoEndpoint: 'https://oauth.reddit.com/api/v1/me',
    scopes: ['identity'],
    tokenAuth: 'basic',
    authParams: { duration: 'permanent' },
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.id);
      if (!u || !id) return null;
      const icon = str(u.icon_img);
      return {
        id,
        email: str(u.email),
        emailVerified: bool(u.has_verified_email),
        name: first(u.name) ?? id,
        image: icon ? icon.split('?')[0] : null,
      };
    },
  },
  // id.vk.com/about/business/go/docs (VK ID): PKCE, device_id returned to the callback and sent back.
  vk: {
    authorizationEndpoint: 'https://id.vk.com/authorize',
    tokenEndpoint: 'https://id.vk.com/oauth2/auth',
    userInfoEndpoint: 'https://id.vk.com/oauth2/user_info',
    userInfoMethod: 'POST',
    scopes: ['email', 'phone'],
    callbackParams: ['device_id'],
    mapProfile: ({ userInfo }) => {
      const u = obj(userInfo?.user);
      const id = str(u.user_id);
      if (!id) return null;
      return {
        id,
        email: str(u.email),
        emailVerified: bool(u.verified),
        name: first([u.first_name, u.last_name].filter(Boolean).join(' ')) ?? id,
        image: str(u.avatar),
      };
    },
  },
  // developers.zoom.us/docs/integrations/oauth and GET /v2/users/me (verified: 1 when the email is verified).
  zoom: {
    authorizationEndpoint: 'https://zoom.us/oauth/authorize',
    tokenEndpoint: 'https://zoom.us/oauth/token',
    userInfoEndpoint: 'https://api.zoom.us/v2/users/me',
    scopes: ['user:read:user'],
    tokenAuth: 'basic',
    mapProfile: ({ userInfo: u }) => {
      const id = str(u?.id);
      if (!u || !id) return null;
      const name = first(u.display_name, [u.first_name, u.last_name].filter(Boolean).join(' '));
      return { id, email: str(u.email), emailVerified: bool(u.verified), name: name ?? id, image: str(u.pic_url) };
    },
  },
} satisfies Record<string, ProviderDefinition>;
