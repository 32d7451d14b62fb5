import {
  type CSSVariablesResolver,
  createTheme,
  localStorageColorSchemeManager,
  type MantineColorsTuple,
  virtualColor,
} from '@mantine/core';

/** The two themes (docs/product.md#page-frame): Mantine's light scheme is `default`, its dark scheme is `cosmic`. */
export type ThemeName = 'default' | 'cosmic';
export const COLOR_SCHEME_KEY = 'fc-color-scheme';

export function themeOf(scheme: 'light' | 'dark'): ThemeName {
  return scheme === 'dark' ? 'cosmic' : 'default';
}
export function schemeOf(theme: ThemeName): 'light' | 'dark' {
  return theme === 'cosmic' ? 'dark' : 'light';
}

const ocean: MantineColorsTuple = [
  '#e6edff',
  '#ccdaff',
  '#99b5ff',
  '#6690ff',
  '#4d7dff',
  '#3366ff',
  '#2952cc',
  '#1f3d99',
  '#142966',
  '#0a1433',
];

const nebula: MantineColorsTuple = [
  '#f3ecff',
  '#e3d4ff',
  '#c6a8ff',
  '#a16eff',
  '#8f55f5',
  '#7f3ff0',
  '#6a2fd6',
  '#5524ab',
  '#3f1a80',
  '#2a1155',
];

/** Cosmic surfaces: deep indigo rather than Mantine's neutral greys. */
const cosmic: MantineColorsTuple = [
  '#e8e8ff',
  '#c4c4e6',
  '#a4a4cf',
  '#8383b5',
  '#4d4d86',
  '#3c3c6e',
  '#323259',
  '#252547',
  '#1b1b38',
  '#13132b',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 5, dark: 3 },
  colors: {
    ocean,
    nebula,
    dark: cosmic,
    brand: virtualColor({ name: 'brand', light: 'ocean', dark: 'nebula' }),
  },
  fontFamily:
    'Inter, "Open Sans", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // Filled buttons, badges and icons take black or white text, whichever their colour needs (docs/accessibility.md).
  autoContrast: true,
  components: {
    Notification: { defaultProps: { withCloseButton: true } },
    Card: { defaultProps: { withBorder: true, radius: 'md', shadow: 'xs' } },
    Paper: { defaultProps: { radius: 'md' } },
  },
  // No `other` values: the toasts take TOAST_TIMEOUT_MS from the contract themselves, and an import of the
  // contract's rules here would bring them (pump states, map markers) into the login route's chunk.
});

/** Page background behind the cards; the cards keep Mantine's body colour. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--fc-app-bg': '#edf1f7',
    '--fc-header-bg': '#ffffff',
    // Mantine's dimmed grey and error red are below 4.5:1 on white and on the page background: darker ones.
    '--fc-muted': '#5f6b7a',
    '--mantine-color-dimmed': '#5f6b7a',
    '--mantine-color-error': '#c92a2a',
    // Text in a colour (counts, states, links) at 4.5:1 on the page background too.
    '--mantine-color-anchor': '#2952cc',
    '--mantine-color-red-text': '#c92a2a',
    '--mantine-color-green-text': '#1e6b2e',
    '--mantine-color-orange-text': '#a93c0b',
    // Light badges and alerts: their text at 4.5:1 on their own tint.
    '--mantine-color-red-light-color': '#c92a2a',
    '--mantine-color-orange-light-color': '#a93c0b',
    '--mantine-color-yellow-light-color': '#7a4a00',
    '--mantine-color-teal-light-color': '#066649',
    '--mantine-color-green-light-color': '#1e6b2e',
    '--mantine-color-blue-light-color': '#1864ab',
    '--mantine-color-gray-light-color': '#495057',
  },
  dark: {
    '--fc-app-bg': '#1b1b38',
    '--fc-header-bg': '#252547',
    '--fc-muted': '#a4a4cf',
    // White on the brand's shade 4 is 4.4:1: filled brand buttons take shade 5 (5.4:1).
    '--mantine-primary-color-filled': '#7f3ff0',
    '--mantine-primary-color-filled-hover': '#6a2fd6',
    '--mantine-color-brand-filled': '#7f3ff0',
    '--mantine-color-brand-filled-hover': '#6a2fd6',
    '--mantine-color-nebula-filled': '#7f3ff0',
    '--mantine-color-nebula-filled-hover': '#6a2fd6',
    // Links in the brand's shade 4 are 3.3:1 on cosmic's cards: a lighter shade reads at 8:1.
    '--mantine-color-anchor': '#c6a8ff',
    // Mantine's dark "light" variant is a faint tint of shade 9: near-black on cosmic's indigo. Lift it.
    '--mantine-color-brand-light': 'rgba(161, 110, 255, 0.2)',
    '--mantine-color-brand-light-hover': 'rgba(161, 110, 255, 0.28)',
    '--mantine-color-brand-light-color': '#d4bcff',
    '--mantine-color-nebula-light': 'rgba(161, 110, 255, 0.2)',
    '--mantine-color-nebula-light-hover': 'rgba(161, 110, 255, 0.28)',
    '--mantine-color-nebula-light-color': '#d4bcff',
    '--mantine-color-gray-light': 'rgba(196, 196, 230, 0.12)',
    '--mantine-color-gray-light-hover': 'rgba(196, 196, 230, 0.2)',
    '--mantine-color-gray-light-color': '#e8e8ff',
  },
});

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });
