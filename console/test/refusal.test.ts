import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { asFormErrors, refusalMessage, refusedField } from '../src/common/refusal';

describe('which field an API refusal is about', () => {
  it('a code the API sends without details names its field, when the form has it', () => {
    const slugTaken = { code: 'ORGANIZATION_ALREADY_EXISTS', message: 'Organization already exists' };
    expect(refusedField(slugTaken, ['name', 'slug', 'logo', 'metadata'])).toEqual({ field: 'slug' });
    expect(refusedField(slugTaken, ['name'])).toEqual({});
    const emailTaken = { code: 'USER_ALREADY_EXISTS', message: 'User already exists' };
    expect(refusedField(emailTaken, ['email', 'name', 'password', 'role'])).toEqual({ field: 'email' });
    expect(refusedField({ code: 'PASSWORD_TOO_SHORT' }, ['email', 'password'])).toEqual({ field: 'password' });
    expect(refusedField({ code: 'NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE' }, ['name', 'role'])).toEqual({ field: 'role' });
    expect(refusedField({ code: 'NO_DATA_TO_UPDATE' }, ['name', 'role'])).toEqual({});
    // Inherited keys are no codes.
    expect(refusedField({ code: 'constructor' }, ['constructor'])).toEqual({});
  });

  it('a field of `data` (update-user, admin/organization/update) is named without the prefix', () => {
    const fields = ['name', 'image', 'language', 'role'];
    expect(
      refusedField({ code: 'VALIDATION_ERROR', details: [{ field: 'body.data.name', problem: 'too long' }] }, fields),
    ).toEqual({ field: 'name', problem: 'too long' });
    expect(refusedField({ details: [{ field: 'body.userId', problem: 'x' }] }, fields)).toEqual({ problem: 'x' });
  });

  it('the message says the problem when the API named one', () => {
    expect(refusalMessage('Invalid request', 'must NOT have more than 256 characters')).toBe(
      'Invalid request: must NOT have more than 256 characters',
    );
    expect(refusalMessage('User already exists')).toBe('User already exists');
  });

  it("a create page's refusal about a field becomes react-admin's form errors; any other is left as it was", () => {
    const taken = new HttpError('User already exists', 422, { code: 'USER_ALREADY_EXISTS', message: 'x' });
    const mapped = asFormErrors(taken, ['email', 'name']) as HttpError;
    expect(mapped).toBeInstanceOf(HttpError);
    expect([mapped.message, mapped.status]).toEqual(['User already exists', 422]);
    expect(mapped.body).toMatchObject({ code: 'USER_ALREADY_EXISTS', errors: { email: 'User already exists' } });
    const banned = new HttpError('Banned', 403, { code: 'BANNED_USER' });
    expect(asFormErrors(banned, ['email'])).toBe(banned);
    const plain = new Error('offline');
    expect(asFormErrors(plain, ['email'])).toBe(plain);
  });
});
