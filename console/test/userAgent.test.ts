import { describe, expect, it } from 'vitest';
import { parseUserAgent } from '../src/users/userAgent';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const HEADLESS =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1';

describe('parseUserAgent: device and browser of a session', () => {
  it('a phone: its model, system and browser', () => {
    expect(parseUserAgent(IPHONE)).toEqual({
      kind: 'phone',
      model: 'Apple iPhone',
      os: 'iOS 17.1',
      browser: 'Mobile Safari 17',
    });
  });

  it('a tablet', () => {
    expect(parseUserAgent(IPAD)).toMatchObject({ kind: 'tablet', model: 'Apple iPad', os: 'iOS 16.6' });
  });

  it('a desktop system without a device is a computer', () => {
    expect(parseUserAgent(WINDOWS_FIREFOX)).toEqual({
      kind: 'computer',
      model: null,
      os: 'Windows 10',
      browser: 'Firefox 121',
    });
    expect(parseUserAgent(HEADLESS)).toMatchObject({ kind: 'computer', os: 'Linux', browser: 'Chrome Headless 140' });
  });

  it('an agent that names nothing it knows, or none, gives nulls', () => {
    const none = { kind: null, model: null, os: null, browser: null };
    expect(parseUserAgent(null)).toEqual(none);
    expect(parseUserAgent('')).toEqual(none);
    expect(parseUserAgent('node')).toEqual(none);
  });
});
