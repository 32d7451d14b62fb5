// Import boundaries of the workspace, checked by `npm run lint` (see docs/decisions/0009-import-boundaries.md).
// A violation prints the rule name, the importing file and the imported one.
const fs = require('node:fs');
const path = require('node:path');

/**
 * The repositories that write the fleet's data: those that import the unit of work (their writes take its `tx`,
 * docs/decisions/0019-repositories-and-row-types.md). Found by that import, so a new one is covered as it is written.
 */
const REPOSITORIES = path.join(__dirname, 'apps/server/src/repositories');
const writingRepositories = fs
  .readdirSync(REPOSITORIES)
  .filter(
    (f) =>
      f.endsWith('.ts') &&
      !f.endsWith('.test.ts') &&
      f !== 'unit-of-work.ts' &&
      f !== 'index.ts' &&
      /from '\.\/unit-of-work\.ts'/.test(fs.readFileSync(path.join(REPOSITORIES, f), 'utf8')),
  )
  .map((f) => f.replace(/[.]/g, '\\.'));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'app-imports-app',
      comment: 'Apps share code only through packages/contract: no app imports another app.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'contract-imports-only-zod',
      comment: 'The contract runs in the browser and on the server: it depends on zod and nothing else.',
      severity: 'error',
      from: { path: '^packages/contract/src/', pathNot: '\\.test\\.ts$' },
      to: { pathNot: '^packages/contract/src/|(^|/)node_modules/zod/' },
    },
    {
      name: 'production-imports-test-support',
      comment:
        "packages/test-support is scaffolding for tests, e2e and bench: an app's production code never imports it.",
      severity: 'error',
      from: { path: '^apps/[^/]+/src/', pathNot: '\\.test\\.tsx?$|^apps/web/src/testing/' },
      to: { path: '^packages/test-support/|(^|/)node_modules/@forecourt/test-support/' },
    },
    {
      name: 'widget-imports-widget',
      comment:
        'A widget never imports another widget: pages in app/ compose them; shared parts live in components/ or lib/.',
      severity: 'error',
      from: { path: '^apps/web/src/widgets/([^/]+)/' },
      to: { path: '^apps/web/src/widgets/', pathNot: '^apps/web/src/widgets/$1/' },
    },
    {
      name: 'route-imports-route',
      comment:
        'A route module never imports another: what two resources share lives in lib/, services/ or repositories/.',
      severity: 'error',
      from: { path: '^apps/server/src/routes/([^/]+)/' },
      to: { path: '^apps/server/src/routes/', pathNot: '^apps/server/src/routes/$1/' },
    },
    {
      name: 'sql-outside-repositories',
      comment:
        'Only repositories (and db/ itself: client, schema, migrations, seed) touch SQL: the drivers, Drizzle and the table schema.',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: '^apps/server/src/(repositories|db)/' },
      to: {
        path: [
          '^apps/server/src/db/(schema|migrations)/',
          '(^|/)node_modules/(@types/)?(drizzle-orm|pg|pg-[^/]+|@electric-sql/pglite)/',
        ],
      },
    },
    {
      name: 'database-outside-composition-root',
      comment:
        'Routes, plugins, services and lib reach data through repositories (app.repos), never through db/: only app.ts and server.ts open, migrate and seed the database.',
      severity: 'error',
      from: { path: '^apps/server/src/(routes|plugins|services|lib|config)/' },
      to: { path: '^apps/server/src/db/', pathNot: '^apps/server/src/db/(schema|migrations)/' },
    },
    {
      name: 'unit-of-work-outside-repositories',
      comment:
        'Writes go through the unit of work (repositories/unit-of-work.ts, the only code that inserts into audit_log and changes): repositories use it, services reach it as app.repos.work; routes, plugins and lib never import it (docs/decisions/0016-write-path.md).',
      severity: 'error',
      from: { path: '^apps/server/src/', pathNot: '^apps/server/src/(repositories|db)/' },
      to: { path: '^apps/server/src/repositories/unit-of-work\\.ts$' },
    },
    {
      name: 'write-repository-outside-services',
      comment:
        'Only services call repositories that write (those importing repositories/unit-of-work.ts): nothing else in the server (routes, plugins, lib, config, app.ts, server.ts) imports one, only read repositories; a type-only import (a row type) is allowed (docs/decisions/0019-repositories-and-row-types.md).',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: '^apps/server/src/(services|repositories|db)/|[.]test[.]tsx?$',
      },
      to: {
        path: `^apps/server/src/repositories/(${writingRepositories.join('|')})$`,
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
