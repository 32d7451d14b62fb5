/** The demo fleet's fixed structure: real UK towns, grouped by region per fuel-card company. */

export const DEMO_AGENT = { id: 1, name: 'Forecourt Agency' };

export interface DemoTown {
  city: string;
  road: string;
  lat: number;
  lng: number;
}

/** The towns, by company id: company, city, road, latitude, longitude. */
const TOWNS: [number, string, string, number, number][] = [
  [1, 'Leeds', 'Kirkstall Road', 53.8008, -1.5491],
  [1, 'Manchester', 'Princess Parkway', 53.4808, -2.2426],
  [1, 'Newcastle upon Tyne', 'Coast Road', 54.9783, -1.6178],
  [1, 'York', 'Tadcaster Road', 53.96, -1.0873],
  [1, 'Sheffield', 'Penistone Road', 53.3811, -1.4701],
  [1, 'Glasgow', 'Great Western Road', 55.8642, -4.2518],
  [1, 'Edinburgh', 'Corstorphine Road', 55.9533, -3.1883],
  [1, 'Belfast', 'Boucher Road', 54.5973, -5.9301],
  [2, 'Birmingham', 'Bristol Road', 52.4862, -1.8904],
  [2, 'Nottingham', 'Derby Road', 52.9548, -1.1581],
  [2, 'Leicester', 'Narborough Road', 52.6369, -1.1398],
  [2, 'Coventry', 'London Road', 52.4068, -1.5197],
  [2, 'Derby', 'Ashbourne Road', 52.9225, -1.4746],
  [2, 'Stoke-on-Trent', 'Leek Road', 53.0027, -2.1794],
  [2, 'Wolverhampton', 'Stafford Road', 52.587, -2.1288],
  [2, 'Northampton', 'Harborough Road', 52.2405, -0.9027],
  [3, 'London', 'Old Kent Road', 51.5074, -0.1278],
  [3, 'Brighton', 'Preston Road', 50.8225, -0.1372],
  [3, 'Southampton', 'Millbrook Road', 50.9097, -1.4044],
  [3, 'Bristol', 'Bath Road', 51.4545, -2.5879],
  [3, 'Reading', 'Oxford Road', 51.4543, -0.9781],
  [3, 'Oxford', 'Botley Road', 51.752, -1.2577],
  [3, 'Portsmouth', 'Eastern Road', 50.8198, -1.088],
  [3, 'Exeter', 'Alphington Road', 50.7184, -3.5339],
];

const COMPANY_NAMES = ['Northern Fuels', 'Midland Petroleum', 'Southern Energy'];

export const DEMO_COMPANIES: { id: number; name: string; towns: DemoTown[] }[] = COMPANY_NAMES.map(
  (name, i) => ({
    id: i + 1,
    name,
    towns: TOWNS.filter(([company]) => company === i + 1).map(([, city, road, lat, lng]) => ({
      city,
      road,
      lat,
      lng,
    })),
  }),
);

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
