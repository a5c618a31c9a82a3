import { describe, expect, it } from 'vitest';
import { productName } from '../src/layout/productName';

describe('productName: what the sign-in screen names', () => {
  it("the identity service's meta tag first, then the build's VITE_PRODUCT_NAME", () => {
    expect(productName('Acme Cloud', 'Built Name')).toBe('Acme Cloud');
    expect(productName(null, ' Built Name ')).toBe('Built Name');
  });

  it('neither (or blank): the setting’s default, Identity', () => {
    for (const [meta, built] of [
      [null, undefined],
      ['', ''],
      ['  ', 42],
    ])
      expect(productName(meta, built)).toBe('Identity');
  });
});
