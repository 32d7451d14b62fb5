/** Route paths of the shell (hash routes, without the leading '#'). Widgets build their links from these. */
export const paths = {
  home: '/',
  auth: {
    root: '/auth',
    login: '/auth/login',
    register: '/auth/register',
    logout: '/auth/logout',
    requestPassword: '/auth/request-password',
    resetPassword: '/auth/reset-password',
  },
  agentDashboard: '/agent/dashboard',
  agentDashboardFor: (agentId: number) => `/agent/${agentId}/dashboard`,
  companyDashboard: (companyId: number) => `/company/${companyId}/dashboard`,
  siteDashboard: (companyId: number, siteId: number) => `/company/${companyId}/site/${siteId}/dashboard`,
  profile: '/profile',
  uiFeatures: (page: string) => `/pages/ui-features/${page}`,
  alertLog: (type: 'agent' | 'company' | 'site', id: number) => `/${type}/${id}/alert/log`,
  /** Log screens, as the seed's "Links used by widgets" write them (plain paths reach the same screens). */
  logs: {
    alert: (type: 'agent' | 'company' | 'site', id: number) => `/${type}/${id}/alert/log/`,
    connectivity: (type: 'agent' | 'company' | 'site', id: number) => `/${type}/${id}/connectivity/log`,
    pumpActivation: (siteId: number) => `/site/${siteId}/pump/activation/log/`,
    pumpStatus: (siteId: number) => `/site/${siteId}/pump/status/log`,
    shock: (companyId: number) => `/company/${companyId}/shock/alert/log`,
    battery: (siteId: number) => `/site/${siteId}/terminal/battery/log`,
    environment: (siteId: number) => `/site/${siteId}/terminal/environment/log`,
    flashdrive: (siteId: number) => `/site/${siteId}/terminal/flashdrive/log`,
    hardware: (companyId: number, siteId: number) =>
      `/company/${companyId}/site/${siteId}/terminal/hardware/log/`,
    reboot: (type: 'agent' | 'company' | 'site', id: number) => `/${type}/${id}/terminal/reboot/log/`,
  },
} as const;

export const UI_FEATURE_PAGES = [
  'buttons',
  'grid',
  'icons',
  'modals',
  'typography',
  'search-fields',
  'tabs',
] as const;
export type UiFeaturePage = (typeof UI_FEATURE_PAGES)[number];
