import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import {
  dropPostgresTemplate,
  newTemplateDumpPath,
  preparePgliteTemplate,
  preparePostgresTemplate,
} from './db-template.ts';

/** Build each database template once per run: migrated and seeded with the demo fleet. */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.FC_TEST_DB ?? 'pglite';
  if (kind === 'postgres') {
    const template = await preparePostgresTemplate();
    project.provide('postgresTemplate', template ? JSON.stringify(template) : '');
    return template ? () => dropPostgresTemplate(template) : undefined;
  }
  const file = newTemplateDumpPath();
  await preparePgliteTemplate(file);
  project.provide('pgliteTemplate', file);
  return () => rmSync(file, { force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** JSON of this run's PostgresTemplate ({adminUrl, template}), or '' when PostgreSQL is unreachable. */
    postgresTemplate: string;
    pgliteTemplate: string;
  }
}
