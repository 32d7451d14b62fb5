import { describe, expect, it } from 'vitest';
import { avatarSrc } from './users.ts';

describe('avatar address', () => {
  it('prefixes a path relative to the API base address', () => {
    expect(avatarSrc('/api/user/avatar/1/', 'https://api.example.com')).toBe(
      'https://api.example.com/api/user/avatar/1/',
    );
    expect(avatarSrc('media/avatars/1.png', 'https://api.example.com')).toBe(
      'https://api.example.com/media/avatars/1.png',
    );
    expect(avatarSrc('/api/user/avatar/1/', '')).toBe('/api/user/avatar/1/');
  });

  it('keeps absolute and inline images, and gives nothing for no avatar', () => {
    expect(avatarSrc('https://cdn.example.com/a.png', 'https://api.example.com')).toBe(
      'https://cdn.example.com/a.png',
    );
    expect(avatarSrc('data:image/png;base64,AAAA', 'https://api.example.com')).toBe(
      'data:image/png;base64,AAAA',
    );
    expect(avatarSrc(null)).toBeUndefined();
    expect(avatarSrc('')).toBeUndefined();
  });
});
