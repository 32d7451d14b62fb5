import type { ContactPoint, NotificationPolicy } from '@forecourt/contract/notifications';
import type { ContactPointRecord } from './contact-point-repository.ts';
import type { PolicyRecord } from './notification-policy-repository.ts';

/** How contact points are shown (the API and the audit): never the secret, nor the place copied from the owner. */
export const publicContactPoint = ({ place: _p, secret: _s, ...point }: ContactPointRecord): ContactPoint =>
  point;

/** How policies are shown: without the place copied from their target's scope. */
export const publicPolicy = ({ place: _, ...policy }: PolicyRecord): NotificationPolicy => policy;
