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

/** Every boundary is an error: a violation fails `npm run lint`. */
const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

/** Code in one folder below `root` never imports another folder below it. */
const ownFolderOnly = (name, comment, root) =>
  forbid(name, comment, { path: `${root}([^/]+)/` }, { path: root, pathNot: `${root}$1/` });

/** The server's code outside repositories/ and db/. */
const outsideDataLayer = { path: '^apps/server/src/', pathNot: '^apps/server/src/(repositories|db)/' };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ownFolderOnly(
      'app-imports-app',
      'Apps share code only through packages/contract: no app imports another app.',
      '^apps/',
    ),
    forbid(
      'contract-imports-only-zod',
      'The contract runs in the browser and on the server: it depends on zod and nothing else.',
      { path: '^packages/contract/src/', pathNot: '\\.test\\.ts$' },
      { pathNot: '^packages/contract/src/|(^|/)node_modules/zod/' },
    ),
    forbid(
      'production-imports-test-support',
      "packages/test-support is scaffolding for tests, e2e and bench: an app's production code never imports it.",
      { path: '^apps/[^/]+/src/', pathNot: '\\.test\\.tsx?$|^apps/web/src/testing/' },
      { path: '^packages/test-support/|(^|/)node_modules/@forecourt/test-support/' },
    ),
    ownFolderOnly(
      'widget-imports-widget',
      'A widget never imports another widget: pages in app/ compose them; shared parts live in components/ or lib/.',
      '^apps/web/src/widgets/',
    ),
    ownFolderOnly(
      'route-imports-route',
      'A route module never imports another: what two resources share lives in lib/, services/ or repositories/.',
      '^apps/server/src/routes/',
    ),
    forbid(
      'sql-outside-repositories',
      'Only repositories (and db/ itself: client, schema, migrations, seed) touch SQL: the drivers, Drizzle and the table schema.',
      outsideDataLayer,
      {
        path: [
          '^apps/server/src/db/(schema|migrations)/',
          '(^|/)node_modules/(@types/)?(drizzle-orm|pg|pg-[^/]+|@electric-sql/pglite)/',
        ],
      },
    ),
    forbid(
      'database-outside-composition-root',
      'Routes, plugins, services and lib reach data through repositories (app.repos), never through db/: only app.ts and server.ts open, migrate and seed the database.',
      { path: '^apps/server/src/(routes|plugins|services|lib|config)/' },
      { path: '^apps/server/src/db/', pathNot: '^apps/server/src/db/(schema|migrations)/' },
    ),
    forbid(
      'unit-of-work-outside-repositories',
      'Writes go through the unit of work (repositories/unit-of-work.ts, the only code that inserts into audit_log and changes): repositories use it, services reach it as app.repos.work; routes, plugins and lib never import it (docs/decisions/0016-write-path.md).',
      outsideDataLayer,
      { path: '^apps/server/src/repositories/unit-of-work\\.ts$' },
    ),
    forbid(
      'write-repository-outside-services',
      'Only services call repositories that write (those importing repositories/unit-of-work.ts): nothing else in the server (routes, plugins, lib, config, app.ts, server.ts) imports one, only read repositories; a type-only import (a row type) is allowed (docs/decisions/0019-repositories-and-row-types.md).',
      { path: '^apps/server/src/', pathNot: '^apps/server/src/(services|repositories|db)/|[.]test[.]tsx?$' },
      {
        path: `^apps/server/src/repositories/(${writingRepositories.join('|')})$`,
        dependencyTypesNot: ['type-only'],
      },
    ),
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
