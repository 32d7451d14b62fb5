import { EVENT_CATALOGUE, SEVERITIES } from '@forecourt/contract/events';

/**
 * SQL fragments of the alert lifecycle shared by the repositories that raise alerts (device events, the
 * connectivity watchdog) and the one that reads them (docs/product.md#alert-lifecycle).
 */

/** `0` for critical … `3` for info: a severity column or expression as its rank (smaller is worse). */
export const severityRankSql = (expr: string) =>
  `(case ${expr} ${SEVERITIES.map((s, i) => `when '${s}' then ${i}`).join(' ')} else ${SEVERITIES.length} end)`;

/** An event type column or expression as the catalogue's severity ('minor' when uncatalogued). */
export const severityOfTypeSql = (expr: string) =>
  `(case ${expr} ${EVENT_CATALOGUE.map((e) => `when ${e.code} then '${e.severity}'`).join(' ')} else 'minor' end)`;

/**
 * Queues the alert mails of freshly inserted alerts: `source` names a relation (a CTE of the same statement)
 * with `id, site_id, company_id, agent_id, severity, silenced`. One row per user whose scope holds the alert's site
 * and whose `email_min_severity` is at or below the alert's severity; none for an alert silenced by a maintenance
 * window (its mail is queued when the window ends, if it is still active: repositories/maintenance-repository.ts).
 * Sending happens later (services/alert-mail.ts), so ingest never waits for SMTP.
 */
export const queueAlertMailsSql = (source: string) =>
  `insert into alert_mails (user_id, site_id, alert_id)
   select u.id, n.site_id, n.id
     from ${source} n
     join users u on not n.silenced and u.email_min_severity is not null
      and ${severityRankSql('n.severity')} <= ${severityRankSql('u.email_min_severity')}
      and (u.agent_id = n.agent_id
           or exists (select 1 from user_companies uc where uc.user_id = u.id and uc.company_id = n.company_id)
           or exists (select 1 from user_sites us where us.user_id = u.id and us.site_id = n.site_id))`;

/**
 * Raises alerts and queues their mails in one statement: `insert` is an `insert into alerts ... select ...` (or
 * `... on conflict ... do nothing`) without its returning clause; answers the ids of the alerts raised.
 */
export const raiseAlertsSql = (insert: string) =>
  `with raised as (
     ${insert}
     returning id, site_id, company_id, agent_id, severity, silenced
   ), mails as (
     ${queueAlertMailsSql('raised')}
   )
   select id from raised`;
