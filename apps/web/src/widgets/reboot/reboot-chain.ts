import { logPath } from '@forecourt/contract/log-paths';
import type { RebootType } from '@forecourt/contract/terminals';

/**
 * The reboot widget's chain of choices (docs/product.md#terminal-reboot): company → site → terminal → reboot type, each
 * available once the one before has a value.
 */
export interface RebootChain {
  company: number | null;
  site: number | null;
  terminal: number | null;
  rebootType: RebootType | null;
  /** The company whose site list was last taken in (auto-select runs once per load). */
  sitesLoadedFor: number | null;
  /** The site whose terminal list was last taken in. */
  terminalsLoadedFor: number | null;
  companiesLoaded: boolean;
}

export interface RebootPresets {
  agentId?: number | string | null;
  companyId?: number | string | null;
  siteId?: number | string | null;
}

/** A preset id counts only when it is a number greater than 0. */
export function presetId(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

export interface ValidPresets {
  agentId: number | null;
  companyId: number | null;
  siteId: number | null;
}

export function validPresets(p: RebootPresets): ValidPresets {
  return { agentId: presetId(p.agentId), companyId: presetId(p.companyId), siteId: presetId(p.siteId) };
}

export function initialChain(p: ValidPresets): RebootChain {
  return {
    company: p.companyId,
    site: p.siteId,
    terminal: null,
    rebootType: null,
    sitesLoadedFor: null,
    terminalsLoadedFor: null,
    companiesLoaded: false,
  };
}

export type RebootChainAction =
  | { type: 'companiesLoaded'; ids: number[] }
  | { type: 'selectCompany'; id: number | null }
  | { type: 'sitesLoaded'; companyId: number; ids: number[] }
  | { type: 'selectSite'; id: number | null }
  | { type: 'terminalsLoaded'; siteId: number; ids: number[] }
  | { type: 'selectTerminal'; id: number | null }
  | { type: 'selectRebootType'; value: RebootType | null }
  | { type: 'rebooted' }
  | { type: 'reset'; presets: ValidPresets };

/** A reducer over the chain; presets are fixed: a preset company or site is never cleared. */
export function rebootChainReducer(presets: ValidPresets) {
  return function reduce(state: RebootChain, action: RebootChainAction): RebootChain {
    switch (action.type) {
      case 'companiesLoaded': {
        if (state.companiesLoaded) return state;
        const next = { ...state, companiesLoaded: true };
        if (presets.companyId === null && state.company === null && action.ids.length === 1) {
          return reduce(next, { type: 'selectCompany', id: action.ids[0] });
        }
        return next;
      }
      case 'selectCompany': {
        if (presets.companyId !== null) return state;
        // Changing the company clears site, terminal and reboot type; its sites load next.
        return {
          ...state,
          company: action.id,
          site: presets.siteId,
          terminal: null,
          rebootType: null,
          sitesLoadedFor: null,
          terminalsLoadedFor: presets.siteId === null ? null : state.terminalsLoadedFor,
        };
      }
      case 'sitesLoaded': {
        if (action.companyId !== state.company || state.sitesLoadedFor === action.companyId) return state;
        const next = { ...state, sitesLoadedFor: action.companyId };
        // A single site is selected automatically, which also loads its terminals.
        if (presets.siteId === null && state.site === null && action.ids.length === 1) {
          return reduce(next, { type: 'selectSite', id: action.ids[0] });
        }
        return next;
      }
      case 'selectSite': {
        if (presets.siteId !== null) return state;
        if (state.company === null) return state;
        return { ...state, site: action.id, terminal: null, rebootType: null, terminalsLoadedFor: null };
      }
      case 'terminalsLoaded': {
        if (action.siteId !== state.site || state.terminalsLoadedFor === action.siteId) return state;
        const next = { ...state, terminalsLoadedFor: action.siteId };
        if (state.terminal === null && action.ids.length === 1) return { ...next, terminal: action.ids[0] };
        return next;
      }
      case 'selectTerminal':
        if (state.site === null) return state;
        return { ...state, terminal: action.id };
      case 'selectRebootType':
        if (state.terminal === null) return state;
        return { ...state, rebootType: action.value };
      case 'rebooted':
        // Every selection clears; a preset company or site stays (it is the widget's input, not a choice).
        // Without a preset company or site, the site list goes too (the company it came from is cleared).
        return {
          ...state,
          company: presets.companyId,
          site: presets.siteId,
          terminal: null,
          rebootType: null,
          sitesLoadedFor: presets.companyId === null && presets.siteId === null ? null : state.sitesLoadedFor,
        };
      case 'reset':
        return initialChain(action.presets);
    }
  };
}

/**
 * Reboot-log link: agent if an agent id is given, else company, else site; null when none is. A company
 * the caller cannot read (a site user on its site's dashboard) is passed over for the site.
 */
export function rebootLogPath(p: ValidPresets, canReadCompany = true): string | null {
  if (p.agentId !== null) return logPath('reboot', 'agent', p.agentId);
  if (p.companyId !== null && (canReadCompany || p.siteId === null))
    return logPath('reboot', 'company', p.companyId);
  if (p.siteId !== null) return logPath('reboot', 'site', p.siteId);
  return null;
}

/** Which controls may be used: each dropdown once the one before has a value; the image once a terminal and a type are chosen. */
export function chainEnabled(state: RebootChain) {
  return {
    site: state.company !== null || state.site !== null,
    terminal: state.site !== null,
    rebootType: state.terminal !== null,
    reboot: state.terminal !== null && state.rebootType !== null,
  };
}
