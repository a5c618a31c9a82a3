import { describe, expect, it } from 'vitest';
import { joinPicked, splitPicked } from '../src/common/pickedValues';

const options = [{ value: 'admin' }, { value: 'support' }, { value: 'user' }];

describe('picked values', () => {
  it('splits a comma-separated text into trimmed values, dropping empty ones', () => {
    expect(splitPicked(' user , admin,,')).toEqual(['user', 'admin']);
    expect(splitPicked('')).toEqual([]);
    expect(splitPicked(undefined)).toEqual([]);
  });

  it("joins picked values in the options' order, whatever the picking order, unknown values last", () => {
    expect(joinPicked(['user', 'admin'], options)).toBe('admin,user');
    expect(joinPicked(['legacy', 'user', 'admin'], options)).toBe('admin,user,legacy');
    expect(joinPicked(['user', 'user'], options)).toBe('user');
    expect(joinPicked([], options)).toBe('');
  });
});
