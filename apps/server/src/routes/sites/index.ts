import { SiteDetailSchema } from '@forecourt/contract/fleet';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { IdPathSchema, scopedErrors } from '../../lib/route-schemas.ts';

export async function siteRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/site/detail/:id/',
    {
      onRequest: app.scope('site'),
      schema: {
        tags: ['site'],
        security: [{ jwt: [] }],
        summary: 'One site the caller reaches',
        params: IdPathSchema,
        response: { 200: SiteDetailSchema, ...scopedErrors },
      },
    },
    async (request) => {
      const site = await app.repos.sites.detail(request.target!.id);
      if (!site) throw notFound();
      return {
        id: site.id,
        title: site.title,
        number: site.number,
        company_id: site.companyId,
        company_name: site.companyName,
        lat: site.lat,
        lng: site.lng,
        city: site.city,
        timezone: site.timezone,
      };
    },
  );
}
