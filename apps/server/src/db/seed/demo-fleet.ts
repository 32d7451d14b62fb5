/** The demo fleet's fixed structure: real UK towns, grouped by region per fuel-card company. */

export const DEMO_AGENT = { id: 1, name: 'Forecourt Agency' };

export interface DemoTown {
  city: string;
  road: string;
  lat: number;
  lng: number;
}

export const DEMO_COMPANIES: { id: number; name: string; towns: DemoTown[] }[] = [
  {
    id: 1,
    name: 'Northern Fuels',
    towns: [
      { city: 'Leeds', road: 'Kirkstall Road', lat: 53.8008, lng: -1.5491 },
      { city: 'Manchester', road: 'Princess Parkway', lat: 53.4808, lng: -2.2426 },
      { city: 'Newcastle upon Tyne', road: 'Coast Road', lat: 54.9783, lng: -1.6178 },
      { city: 'York', road: 'Tadcaster Road', lat: 53.96, lng: -1.0873 },
      { city: 'Sheffield', road: 'Penistone Road', lat: 53.3811, lng: -1.4701 },
      { city: 'Glasgow', road: 'Great Western Road', lat: 55.8642, lng: -4.2518 },
      { city: 'Edinburgh', road: 'Corstorphine Road', lat: 55.9533, lng: -3.1883 },
      { city: 'Belfast', road: 'Boucher Road', lat: 54.5973, lng: -5.9301 },
    ],
  },
  {
    id: 2,
    name: 'Midland Petroleum',
    towns: [
      { city: 'Birmingham', road: 'Bristol Road', lat: 52.4862, lng: -1.8904 },
      { city: 'Nottingham', road: 'Derby Road', lat: 52.9548, lng: -1.1581 },
      { city: 'Leicester', road: 'Narborough Road', lat: 52.6369, lng: -1.1398 },
      { city: 'Coventry', road: 'London Road', lat: 52.4068, lng: -1.5197 },
      { city: 'Derby', road: 'Ashbourne Road', lat: 52.9225, lng: -1.4746 },
      { city: 'Stoke-on-Trent', road: 'Leek Road', lat: 53.0027, lng: -2.1794 },
      { city: 'Wolverhampton', road: 'Stafford Road', lat: 52.587, lng: -2.1288 },
      { city: 'Northampton', road: 'Harborough Road', lat: 52.2405, lng: -0.9027 },
    ],
  },
  {
    id: 3,
    name: 'Southern Energy',
    towns: [
      { city: 'London', road: 'Old Kent Road', lat: 51.5074, lng: -0.1278 },
      { city: 'Brighton', road: 'Preston Road', lat: 50.8225, lng: -0.1372 },
      { city: 'Southampton', road: 'Millbrook Road', lat: 50.9097, lng: -1.4044 },
      { city: 'Bristol', road: 'Bath Road', lat: 51.4545, lng: -2.5879 },
      { city: 'Reading', road: 'Oxford Road', lat: 51.4543, lng: -0.9781 },
      { city: 'Oxford', road: 'Botley Road', lat: 51.752, lng: -1.2577 },
      { city: 'Portsmouth', road: 'Eastern Road', lat: 50.8198, lng: -1.088 },
      { city: 'Exeter', road: 'Alphington Road', lat: 50.7184, lng: -3.5339 },
    ],
  },
];

export interface DemoZone {
  title: string;
  area: string;
  tzTitle: string;
  iana: string;
}

const ZONES: Record<string, DemoZone> = {
  london: { title: 'London', area: 'Europe', tzTitle: 'GMT / BST', iana: 'Europe/London' },
  newYork: { title: 'New York', area: 'America', tzTitle: 'Eastern Time', iana: 'America/New_York' },
  dubai: { title: 'Dubai', area: 'Asia', tzTitle: 'Gulf Standard Time', iana: 'Asia/Dubai' },
  tokyo: { title: 'Tokyo', area: 'Asia', tzTitle: 'Japan Standard Time', iana: 'Asia/Tokyo' },
  sydney: {
    title: 'Sydney',
    area: 'Australia',
    tzTitle: 'Australian Eastern Time',
    iana: 'Australia/Sydney',
  },
  lagos: { title: 'Lagos', area: 'Africa', tzTitle: 'West Africa Time', iana: 'Africa/Lagos' },
  dublin: { title: 'Dublin', area: 'Europe', tzTitle: 'GMT / IST', iana: 'Europe/Dublin' },
  paris: { title: 'Paris', area: 'Europe', tzTitle: 'Central European Time', iana: 'Europe/Paris' },
};

export const AGENT_ZONES: DemoZone[] = [
  ZONES.london!,
  ZONES.newYork!,
  ZONES.dubai!,
  ZONES.tokyo!,
  ZONES.sydney!,
  ZONES.lagos!,
];

export const COMPANY_ZONES: Record<number, DemoZone[]> = {
  1: [ZONES.london!, ZONES.dublin!, ZONES.newYork!],
  2: [ZONES.london!, ZONES.paris!, ZONES.dubai!, ZONES.tokyo!],
  3: [ZONES.london!, ZONES.lagos!, ZONES.sydney!],
};

export const DEMO_USERS = [
  { id: 1, username: 'agent', name: 'Alex Agent', email: 'agent@forecourt.local', agentId: 1 },
  { id: 2, username: 'company', name: 'Casey Company', email: 'company@forecourt.local', agentId: null },
  { id: 3, username: 'site', name: 'Sam Site', email: 'site@forecourt.local', agentId: null },
] as const;
export const DEMO_PASSWORD = 'demo1234';

/** Software versions the demo terminals report: most run `current`, the canaries `next`. */
export const DEMO_SOFTWARE = { current: '4.2.1', next: '4.3.0' } as const;

/** Event types by weight for the alert history: hardware types (1, 2, 12–15) well represented. */
export const ALERT_WEIGHTS: [number, number][] = [
  [1, 14],
  [2, 12],
  [12, 8],
  [13, 8],
  [14, 7],
  [15, 9],
  [5, 6],
  [6, 5],
  [7, 6],
  [8, 5],
  [9, 4],
  [10, 4],
  [11, 3],
];
