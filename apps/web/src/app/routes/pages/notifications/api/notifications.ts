import {
  type ContactPoint,
  type ContactPointCreated,
  ContactPointCreatedSchema,
  type ContactPointCreateInput,
  ContactPointSchema,
  type Delivery,
  DeliverySchema,
  type DeliveryStatus,
  type NotificationPolicy,
  type NotificationPolicyCreateInput,
  NotificationPolicySchema,
} from '@forecourt/contract/notifications';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../../../lib/api-client.ts';

/** The Notifications page's reads: contact points, policies and the delivery log (docs/integrations.md). */
export const notificationKeys = {
  all: ['notifications'] as const,
  contactPoints: () => [...notificationKeys.all, 'contact-points'] as const,
  policies: () => [...notificationKeys.all, 'policies'] as const,
  deliveries: (status: DeliveryStatus | '') => [...notificationKeys.all, 'deliveries', status] as const,
};

export const contactPointsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.contactPoints(),
    queryFn: ({ signal }): Promise<ContactPoint[]> =>
      api.get('/api/contact-points/', {
        schema: z.array(ContactPointSchema),
        signal,
        query: { limit_to: 1000 },
      }),
  });

export const policiesQuery = () =>
  queryOptions({
    queryKey: notificationKeys.policies(),
    queryFn: ({ signal }): Promise<NotificationPolicy[]> =>
      api.get('/api/notification-policies/', {
        schema: z.array(NotificationPolicySchema),
        signal,
        query: { limit_to: 1000 },
      }),
  });

export const deliveriesQuery = (status: DeliveryStatus | '') =>
  queryOptions({
    queryKey: notificationKeys.deliveries(status),
    queryFn: ({ signal }): Promise<Delivery[]> =>
      api.get('/api/notification-deliveries/', {
        schema: z.array(DeliverySchema),
        signal,
        query: { limit_to: 50, status },
      }),
  });

export const createContactPoint = (body: ContactPointCreateInput): Promise<ContactPointCreated> =>
  api.post('/api/contact-points/', body, { schema: ContactPointCreatedSchema });
export const deleteContactPoint = (id: number) => api.delete(`/api/contact-points/${id}/`);
export const testContactPoint = (id: number): Promise<Delivery> =>
  api.post(`/api/contact-points/${id}/test/`, {}, { schema: DeliverySchema });
export const createPolicy = (body: NotificationPolicyCreateInput): Promise<NotificationPolicy> =>
  api.post('/api/notification-policies/', body, { schema: NotificationPolicySchema });
export const deletePolicy = (id: number) => api.delete(`/api/notification-policies/${id}/`);
