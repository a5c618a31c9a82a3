import { describe, expect, it } from 'vitest';
import { roleField } from '../src/common/roleField';

const base = { name: 'role', label: 'Role', pickHelp: 'Pick', typeHelp: 'Type', testId: 'role-input', required: true };

describe('roleField', () => {
  it('offers the configured roles as a choice, several when multiple', () => {
    const field = roleField({ ...base, names: ['admin', 'user'], current: 'user', multiple: true });
    expect(field).toMatchObject({ name: 'role', helperText: 'Pick', multiple: true, required: true });
    expect(field.options).toEqual([
      { value: 'admin', label: 'admin' },
      { value: 'user', label: 'user' },
    ]);
  });

  it('still offers a current role the list lacks, so the dialog opens showing it', () => {
    const field = roleField({ ...base, names: ['admin', 'user'], current: 'user, retired' });
    expect(field.options?.map((o) => o.value)).toEqual(['admin', 'user', 'retired']);
    expect(field.multiple).toBeUndefined();
  });

  it('becomes a text field when the roles could not be read', () => {
    const field = roleField({ ...base, names: undefined, current: 'user', multiple: true });
    expect(field).toEqual({ name: 'role', label: 'Role', helperText: 'Type', required: true, testId: 'role-input' });
  });
});
