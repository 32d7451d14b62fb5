import i18next from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../testing/fetch-mock.ts';
import { fetchBackend } from './fetch-backend.ts';

const read = (lng: string) =>
  new Promise<{ error: unknown; data: unknown }>((resolve) =>
    fetchBackend((l) => `/assets/i18n/${l}.json?v=1`).read(lng, 'translation', (error, data) =>
      resolve({ error, data }),
    ),
  );

describe('fetchBackend', () => {
  it('reads /assets/i18n/{lng}.json into an i18next instance', async () => {
    const api = mockFetch({ 'GET /assets/i18n/fr.json': json({ LOGIN_TITLE: 'Connexion' }) });
    const instance = i18next.createInstance();
    await instance.use(fetchBackend((l) => `/assets/i18n/${l}.json?v=abc`)).init({
      lng: 'fr',
      fallbackLng: 'fr',
      load: 'languageOnly',
    });
    expect(instance.t('LOGIN_TITLE')).toBe('Connexion');
    expect(api.calls.map((c) => `${c.url.pathname}${c.url.search}`)).toEqual(['/assets/i18n/fr.json?v=abc']);
  });

  it('asks for a retry after no answer or a 5xx, not after a 4xx or a body that is not JSON', async () => {
    mockFetch({ 'GET /assets/i18n/fr.json': new TypeError('Failed to fetch') });
    expect(await read('fr')).toMatchObject({ data: true });
    mockFetch({ 'GET /assets/i18n/fr.json': json({}, 503) });
    expect(await read('fr')).toMatchObject({ data: true });
    mockFetch({ 'GET /assets/i18n/fr.json': json({}, 404) });
    const missing = await read('fr');
    expect(missing).toMatchObject({ data: false });
    expect(String(missing.error)).toMatch(/status code: 404/);
    vi.stubGlobal('fetch', async () => new Response('<html>', { status: 200 }));
    expect(await read('fr')).toMatchObject({ data: false });
  });
});
