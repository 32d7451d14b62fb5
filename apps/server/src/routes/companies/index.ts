import { CompanyDetailSchema } from '@forecourt/contract/fleet';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { IdPathSchema, scopedErrors } from '../../lib/route-schemas.ts';

export async function companyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/company/detail/:id/',
    {
      onRequest: app.scope('company'),
      schema: {
        tags: ['company'],
        security: [{ jwt: [] }],
        summary: 'One company the caller reaches',
        params: IdPathSchema,
        response: { 200: CompanyDetailSchema, ...scopedErrors },
      },
    },
    async (request) => {
      const company = await app.repos.companies.detail(request.target!.id);
      if (!company) throw notFound();
      return {
        id: company.id,
        name: company.name,
        agent_id: company.agentId,
        logo: company.logo,
        sites_count: company.sitesCount,
      };
    },
  );
}
