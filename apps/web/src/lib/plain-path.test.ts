import { describe, expect, it } from 'vitest';
import { hashUrlForPlainPath } from './plain-path.ts';

describe('plain paths become hash routes', () => {
  it.each([
    ['/site/3/pump/status/log', '', '', '/#/site/3/pump/status/log'],
    ['/site/3/pump/activation/log/', '', '', '/#/site/3/pump/activation/log/'],
    ['/company/1/shock/alert/log', '?q=Leeds&min=2', '', '/#/company/1/shock/alert/log?q=Leeds&min=2'],
    ['/profile', '', '#/', '/#/profile'],
  ])('%s%s', (pathname, search, hash, expected) => {
    expect(hashUrlForPlainPath({ pathname, search, hash })).toBe(expected);
  });

  it('leaves the root and existing hash routes alone', () => {
    expect(hashUrlForPlainPath({ pathname: '/', search: '', hash: '#/agent/dashboard' })).toBeNull();
    expect(hashUrlForPlainPath({ pathname: '/', search: '?reset_password_token=x', hash: '' })).toBeNull();
    expect(hashUrlForPlainPath({ pathname: '/index.html', search: '', hash: '' })).toBeNull();
    expect(
      hashUrlForPlainPath({ pathname: '/site/3/x', search: '', hash: '#/agent/1/alert/log' }),
    ).toBeNull();
  });
});
