/** A demo user's session: the token the API gave and the user record the console stores beside it. */
export interface Session {
  token: string;
  user: Record<string, unknown>;
}

/** Signs a demo user in (password demo1234) through the API. */
export async function signIn(url: string, username: string): Promise<Session> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo1234', rememberMe: true }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username} failed: ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  const user = (await (
    await fetch(`${url}/api/user/`, { headers: { Authorization: `JWT ${token}` } })
  ).json()) as Record<string, unknown>;
  return { token, user };
}

/** The page each demo user lands on, by its own path (no redirect measured). */
export async function dashboards(url: string) {
  const agent = await signIn(url, 'agent');
  const company = await signIn(url, 'company');
  const site = await signIn(url, 'site');
  const companyId = (company.user.companies as { id: number }[])[0].id;
  const siteId = (site.user.sites as { id: number }[])[0].id;
  const detail = (await (
    await fetch(`${url}/api/site/detail/${siteId}/`, { headers: { Authorization: `JWT ${site.token}` } })
  ).json()) as { company_id: number };
  return {
    agent: { session: agent, hash: `/agent/${agent.user.agent}/dashboard` },
    company: { session: company, hash: `/company/${companyId}/dashboard` },
    site: { session: site, hash: `/company/${detail.company_id}/site/${siteId}/dashboard` },
  };
}
