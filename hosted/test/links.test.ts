import { describe, expect, it } from 'vitest';
import { pageHref, pageTarget, routeOf, withoutParams } from '../src/links';

describe('page addresses', () => {
  it('finds the page under the base path; the base itself is sign-in', () => {
    expect(routeOf('/auth/', '/auth/')).toBe('sign-in');
    expect(routeOf('/auth', '/auth/')).toBe('sign-in');
    expect(routeOf('/auth/reset-password', '/auth/')).toBe('reset-password');
    expect(routeOf('/auth/sign-up/', '/auth/')).toBe('sign-up');
    expect(routeOf('/auth/two-factor', '/auth/')).toBe('two-factor');
    expect(routeOf('/auth/security', '/auth/')).toBe('security');
    expect(routeOf('/auth/nothing', '/auth/')).toBeNull();
    expect(routeOf('/other/sign-in', '/auth/')).toBeNull();
    expect(routeOf('/sign-in', '/')).toBe('sign-in');
  });

  it('links keep the callback and the language', () => {
    const carry = { callbackURL: 'https://app.example.com/home?x=1', lang: 'de' };
    expect(pageHref('sign-up', carry)).toBe('sign-up?callbackURL=https%3A%2F%2Fapp.example.com%2Fhome%3Fx%3D1&lang=de');
    expect(pageHref('sign-in', { callbackURL: null, lang: null })).toBe('sign-in');
  });

  it("links keep a new user's callback too (a mailed sign-in link's newUserCallbackURL)", () => {
    const carry = { callbackURL: '/home', newUserCallbackURL: 'https://app.example.com/welcome', lang: null };
    expect(pageHref('magic-link', carry)).toBe(
      'magic-link?callbackURL=%2Fhome&newUserCallbackURL=https%3A%2F%2Fapp.example.com%2Fwelcome',
    );
    expect(pageHref('sign-in', { ...carry, callbackURL: null, newUserCallbackURL: null })).toBe('sign-in');
  });

  it("a page as the API's redirect target: a path on the API's origin, a full URL elsewhere", () => {
    const carry = { callbackURL: 'https://app.example.com/', lang: null };
    const served = { baseURI: 'https://id.example.com/auth/', apiBase: 'https://id.example.com/api/auth' };
    expect(pageTarget('reset-password', carry, served)).toBe(
      '/auth/reset-password?callbackURL=https%3A%2F%2Fapp.example.com%2F',
    );
    const cdn = { baseURI: 'https://login.example.com/', apiBase: 'https://id.example.com/api/auth' };
    expect(pageTarget('email-verified', { callbackURL: null, lang: null }, cdn)).toBe(
      'https://login.example.com/email-verified',
    );
  });

  it('drops a used token from the address', () => {
    expect(withoutParams('https://id.example.com/auth/reset-password?token=abc&lang=de', ['token'])).toBe(
      'https://id.example.com/auth/reset-password?lang=de',
    );
  });
});
