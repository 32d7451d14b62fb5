/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base address of the Forecourt API; empty means same origin. */
  readonly VITE_API_BASE?: string;
  /** Auth provider name: `email` (reading A, /api/auth/...) or `jwt` (reading B, /api-token-auth/ ...). */
  readonly VITE_AUTH_PROVIDER?: string;
  /** `jwt` sends `Authorization: JWT <token>`; `raw` sends the bare token in VITE_AUTH_HEADER. */
  readonly VITE_AUTH_HEADER_MODE?: string;
  readonly VITE_AUTH_HEADER?: string;
  /** `on` to record analytics events (off by default). */
  readonly VITE_ANALYTICS?: string;
  readonly VITE_ANALYTICS_URL?: string;
  readonly VITE_COMPANY_LABEL?: string;
}

declare const __I18N_VERSION__: string;
declare const __I18N_LANGUAGES__: string[];

/** Leaflet's ES module sources (src/lib/leaflet.ts imports the parts the maps use); typed there. */
declare module 'leaflet/src/*';
