import { describe, expect, it } from 'vitest';
import { productUrl } from '../src/layout/productUrl';

describe("productUrl: the impersonation banner's link", () => {
  it('an http(s) address', () => {
    expect(productUrl('https://app.example.com')).toBe('https://app.example.com/');
    expect(productUrl(' http://127.0.0.1:9/app/ ')).toBe('http://127.0.0.1:9/app/');
  });

  it('unset, empty, relative or another scheme: no link', () => {
    for (const value of [undefined, '', '  ', '/app', 'javascript:alert(1)', 'ftp://example.com', 42])
      expect(productUrl(value)).toBeNull();
  });
});
