import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyDocumentLanguage, formatLocale, languageDir } from '../../i18n/languages.ts';
import { makeUser } from '../../testing/factories.ts';
import { json, mockFetch } from '../../testing/fetch-mock.ts';
import { renderApp } from '../../testing/render.tsx';

afterEach(() => applyDocumentLanguage('en'));

describe('language and direction', () => {
  it('the user menu lists English, Français and العربية, the current one marked; choosing Arabic turns the console right to left', async () => {
    mockFetch({ 'POST /api-token-verify/': json({ token: 'x' }) });
    const { user, i18n } = renderApp('/agent/dashboard', { user: makeUser() });
    await screen.findByRole('heading', { name: 'Dashboard' });
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    await user.click(screen.getByRole('button', { name: /^User menu/ }));
    const choices = (await screen.findAllByRole('menuitem')).filter((item) => item.hasAttribute('lang'));
    expect(choices.map((c) => c.textContent)).toEqual(['English', 'Français', 'العربية']);
    expect(screen.getByRole('menuitem', { name: 'English' })).toHaveAttribute('aria-current', 'true');

    await user.click(screen.getByRole('menuitem', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(i18n.language).toBe('ar');
    const menu = screen.getByRole('navigation', { name: 'القائمة الرئيسية' });
    expect(within(menu).getByRole('link', { name: 'لوحة المعلومات' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^قائمة المستخدم/ }));
    expect(await screen.findByRole('menuitem', { name: 'العربية' })).toHaveAttribute('aria-current', 'true');
    await user.click(screen.getByRole('menuitem', { name: 'English' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
  });

  it('the sign-in screen has the picker too, and Arabic mirrors it', async () => {
    const { user } = renderApp('/auth/login');
    const picker = await screen.findByRole('combobox', { name: 'Language' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['English', 'Français', 'العربية']);
    await user.selectOptions(picker, 'ar');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(await screen.findByRole('heading', { name: 'تسجيل الدخول' })).toBeInTheDocument();
  });

  it('names the direction and the number and date conventions of each language', () => {
    expect([
      languageDir('en'),
      languageDir('fr'),
      languageDir('ar'),
      languageDir('ar-EG'),
      languageDir('xx'),
    ]).toEqual(['ltr', 'ltr', 'rtl', 'rtl', 'ltr']);
    expect([formatLocale('en'), formatLocale('fr'), formatLocale('ar')]).toEqual(['en-GB', 'fr-FR', 'ar']);
  });
});
