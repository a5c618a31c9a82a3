import { describe, expect, it } from 'vitest';
import { chooseLanguage, parseLanguage, translator } from '../src/i18n';
import { en } from '../src/i18n/en';

describe('the page language', () => {
  it("is the user's stored language first, then ?lang=, then the browser's languages, then the default", () => {
    const all = { stored: 'POL', query: 'de', browser: ['fr-FR', 'en'], fallback: 'TURKEY' };
    expect(chooseLanguage(all)).toBe('POL');
    expect(chooseLanguage({ ...all, stored: null })).toBe('GERMAN');
    expect(chooseLanguage({ ...all, stored: null, query: null })).toBe('FRA');
    expect(chooseLanguage({ ...all, stored: null, query: null, browser: ['ja', 'zh-CN'] })).toBe('TURKEY');
    expect(chooseLanguage({})).toBe('ENG');
  });

  it('skips what is none of the eight languages', () => {
    expect(chooseLanguage({ stored: 'KLINGON', query: 'xx', browser: ['ja', 'uk-UA'] })).toBe('UKR');
    expect(parseLanguage('GERMAN')).toBe('GERMAN');
    expect(parseLanguage('ru-RU')).toBe('RUS');
    expect(parseLanguage('german')).toBeNull();
    expect(parseLanguage('')).toBeNull();
  });

  it('puts values into the sentences and leaves unknown ones visible', () => {
    const t = translator(en);
    expect(t('signInTo', { product: 'Acme' })).toBe('Sign in to Acme');
    expect(t('signedInAs')).toBe('Signed in as {email}.');
  });
});
