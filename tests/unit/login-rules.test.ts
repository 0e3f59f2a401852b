import { describe, expect, it } from 'vitest';
import { h5AvatarUrl, placeholderAvatar } from '@/lib/avatar.ts';
import { safeRedirect } from '@/features/auth/redirect.ts';
import { checkPasswordLogin, checkSmsLogin } from '@/features/auth/validation.ts';

const origin = 'https://beacontoolkit.net';
const fallback = '/account/center/info';

describe('safeRedirect', () => {
  it('keeps same-site paths with their query and hash', () => {
    expect(safeRedirect('/en/faq', origin, fallback)).toBe('/en/faq');
    expect(safeRedirect('/pay?id=42#top', origin, fallback)).toBe('/pay?id=42#top');
  });

  it('refuses anything that could leave the site', () => {
    for (const raw of [null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'evil.example', ' /x']) {
      expect(safeRedirect(raw, origin, fallback)).toBe(fallback);
    }
  });
});

describe('login form checks', () => {
  it('asks for the agreement first, then the phone, then the code', () => {
    expect(checkSmsLogin({ agreed: false, phone: '', code: '' })).toBe('login.agreeFirst');
    expect(checkSmsLogin({ agreed: true, phone: ' ' })).toBe('login.phoneRequired');
    expect(checkSmsLogin({ agreed: true, phone: '12ab' })).toBe('login.phoneInvalid');
    expect(checkSmsLogin({ agreed: true, phone: '13800000000' })).toBeNull();
    expect(checkSmsLogin({ agreed: true, phone: '+8613800000000', code: '12345' })).toBe('login.codeRequired');
    expect(checkSmsLogin({ agreed: true, phone: '13800000000', code: '123456' })).toBeNull();
  });

  it('checks password logins the same way', () => {
    expect(checkPasswordLogin({ agreed: false, account: 'a', password: 'b' })).toBe('login.agreeFirst');
    expect(checkPasswordLogin({ agreed: true, account: '', password: 'b' })).toBe('login.accountRequired');
    expect(checkPasswordLogin({ agreed: true, account: 'a', password: '' })).toBe('login.passwordRequired');
    expect(checkPasswordLogin({ agreed: true, account: 'a', password: 'b' })).toBeNull();
  });
});

describe('H5AvatarUrl', () => {
  it('is the first avatar image, or the placeholder', () => {
    expect(h5AvatarUrl({ AvatarUrl: { small: '/a.png', large: '/b.png' } })).toBe('/a.png');
    expect(h5AvatarUrl({ AvatarUrl: {} })).toBe(placeholderAvatar);
    expect(h5AvatarUrl({ AvatarUrl: { small: '' } })).toBe(placeholderAvatar);
  });
});
