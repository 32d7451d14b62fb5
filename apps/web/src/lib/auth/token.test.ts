import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../../testing/fetch-mock.ts';
import { AuthJwtToken, AuthSimpleToken, createToken } from './token.ts';

describe('AuthJwtToken', () => {
  it('rejects a token without exactly three parts with the contract message', () => {
    expect(() => new AuthJwtToken('a.b').getPayload()).toThrow(
      'The token is not a valid JWT token and must consist of three parts.',
    );
    expect(() => new AuthJwtToken('a.b.c.d').getPayload()).toThrow('must consist of three parts');
    expect(new AuthJwtToken('a.b').isValid()).toBe(false);
  });

  it('rejects a token whose payload cannot be decoded', () => {
    expect(() => new AuthJwtToken('aaa.%%%.ccc').getPayload()).toThrow('The token could not be decoded.');
    expect(new AuthJwtToken('aaa.bm90IGpzb24.ccc').isValid()).toBe(false);
  });

  it('honours exp (seconds): valid before, invalid after', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = new AuthJwtToken(fakeJwt({ exp }));
    expect(token.getExpiration()?.getTime()).toBe(exp * 1000);
    expect(token.isValid(exp * 1000 - 1)).toBe(true);
    expect(token.isValid(exp * 1000)).toBe(false);
  });

  it('a token without exp stays valid; an empty one never is', () => {
    const token = new AuthJwtToken(fakeJwt({ exp: undefined }));
    expect(token.getExpiration()).toBeNull();
    expect(token.isValid()).toBe(true);
    expect(new AuthJwtToken('').isValid()).toBe(false);
  });
});

describe('AuthSimpleToken', () => {
  it('is valid when non-empty', () => {
    expect(new AuthSimpleToken('abc').isValid()).toBe(true);
    expect(new AuthSimpleToken('').isValid()).toBe(false);
    expect(createToken('raw', 'simple').isValid()).toBe(true);
    expect(createToken('raw', 'jwt').isValid()).toBe(false);
  });
});
