import { describe, expect, it } from 'vitest';
import {
  logoProblem,
  metadataProblem,
  metadataText,
  organizationChanges,
  slugProblem,
} from '../src/organizations/organizationForm';

/** The keys with their arguments, so each test sees which message was chosen. */
const translate = (key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key;
const stored = { name: 'Acme', slug: 'acme', logo: null, metadata: { plan: 'pro' } };
const values = { name: 'Acme', slug: 'acme', logo: '', metadata: metadataText(stored.metadata) };

describe('the organization edit form', () => {
  it('takes a JSON object as metadata, or nothing; anything else gets a message saying what is wrong', () => {
    expect(metadataProblem('{"plan": "pro", "seats": 5}', translate)).toBeUndefined();
    expect(metadataProblem('', translate)).toBeUndefined();
    expect(metadataProblem('{"plan": }', translate)).toMatch(/^resources\.organizations\.edit\.metadata_not_json /);
    for (const text of ['[1, 2]', '"pro"', '5', 'null'])
      expect(metadataProblem(text, translate)).toBe('resources.organizations.edit.metadata_not_object');
    const tooMany = JSON.stringify(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])));
    expect(metadataProblem(tooMany, translate)).toBe('resources.organizations.edit.metadata_too_many {"max":64}');
  });

  it('takes an http(s) logo address or none, and a slug of lowercase letters, digits and dashes', () => {
    expect(logoProblem('', translate)).toBeUndefined();
    expect(logoProblem('https://cdn.example/logo.png', translate)).toBeUndefined();
    for (const bad of ['logo.png', 'javascript:alert(1)', `https://x.example/${'a'.repeat(2048)}`])
      expect(logoProblem(bad, translate)).toBe('resources.organizations.edit.logo_invalid');
    expect(slugProblem('acme-2', translate)).toBeUndefined();
    for (const bad of ['Acme', '-acme', 'ac me', ''])
      expect(slugProblem(bad, translate)).toBe('resources.organizations.slug_help');
  });

  it('sends only what changed: nothing when nothing did', () => {
    expect(organizationChanges(values, stored)).toEqual({});
    expect(organizationChanges({ ...values, name: ' Acme Ltd ' }, stored)).toEqual({ name: 'Acme Ltd' });
    expect(organizationChanges({ ...values, logo: 'https://cdn.example/a.png' }, stored)).toEqual({
      logo: 'https://cdn.example/a.png',
    });
    expect(organizationChanges(values, { ...stored, logo: 'https://cdn.example/a.png' })).toEqual({ logo: null });
    expect(organizationChanges({ ...values, metadata: '{"plan":"free"}' }, stored)).toEqual({
      metadata: { plan: 'free' },
    });
    expect(organizationChanges({ ...values, metadata: '' }, stored)).toEqual({ metadata: {} });
    expect(organizationChanges({ ...values, metadata: '{}' }, { ...stored, metadata: null })).toEqual({});
  });
});
