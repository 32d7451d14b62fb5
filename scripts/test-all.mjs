#!/usr/bin/env node
// Runs every suite of the workspace and ends with one line: `N passed, N failed`.
// Usage: node scripts/test-all.mjs [suite ...]   (suites: lint contract server server-node24 simulator web crash e2e
// e2e-api-node24)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'forecourt-tests-'));
const wanted = process.argv.slice(2);
const all = [
  'lint',
  'contract',
  'server',
  'server-node24',
  'simulator',
  'web',
  'crash',
  'e2e',
  'e2e-api-node24',
];
/**
 * The other supported Node.js line, from the npm registry's `node` package (a real binary, cached in ~/.npm/_npx):
 * the machine's own Node runs everything, this one the server suite on PGlite and the API journeys (the e2e file
 * that needs no browser, its server process started by the same Node) (README, "Set-up").
 */
const OTHER_NODE = 'node@24.21.0';
const suites = wanted.length ? wanted : all;

function run(cmd, args, opts = {}) {
  console.log(
    `\n$ ${cmd} ${args.join(' ')}${opts.cwd ? `   (in ${path.relative(root, opts.cwd) || '.'})` : ''}`,
  );
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    cwd: root,
    ...opts,
    env: { ...process.env, ...opts.env },
  });
  return r.status ?? 1;
}

function ensureInstalled() {
  if (existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) {
    console.error('npm ci failed');
    process.exit(1);
  }
}

function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return true;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.warn(
      'Chromium is missing and cannot be installed here (needs root and apt-get): skipping browser tests.',
    );
    return false;
  }
  run('apt-get', ['update', '-qq']);
  return (
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { DEBIAN_FRONTEND: 'noninteractive' } }) === 0
  );
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

/** The e2e journeys that drive the HTTP API alone (no browser). */
const API_JOURNEYS = ['tests/api.test.ts'];

let otherNodeBin;
/** The path of OTHER_NODE's binary, fetched once by npm exec (`-p` is not `--package` there: it means --parseable). */
function otherNode() {
  if (otherNodeBin !== undefined) return otherNodeBin;
  otherNodeBin = fetchOtherNode();
  return otherNodeBin;
}

function fetchOtherNode() {
  const r = spawnSync(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${OTHER_NODE}`,
      '--',
      'node',
      '-p',
      'process.version + " " + process.execPath',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const [version, bin] = (r.stdout ?? '').trim().split(' ');
  if (r.status !== 0 || !bin || !existsSync(bin)) {
    console.error(
      `could not get ${OTHER_NODE} from the npm registry: ${(r.stderr ?? '').trim().slice(-500)}`,
    );
    return null;
  }
  console.log(`\n${OTHER_NODE}: ${version} at ${bin}`);
  return bin;
}

function vitest(name, dir, opts = {}) {
  const cwd = path.join(root, dir);
  const hasTests = spawnSync(
    'bash',
    ['-c', `ls -R ${cwd} 2>/dev/null | grep -E '\\.test\\.tsx?$' | head -1`],
    {
      encoding: 'utf8',
    },
  ).stdout.trim();
  if (!hasTests) {
    lines.push(`${name}: no tests`);
    return;
  }
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const args = [
    'run',
    ...(opts.project ? [`--project=${opts.project}`] : []),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ];
  const status = opts.node
    ? run(opts.node, [path.join(root, 'node_modules/vitest/vitest.mjs'), ...args], { cwd })
    : run('npx', ['vitest', ...args], { cwd });
  if (!existsSync(out)) {
    totals.failed += 1;
    lines.push(`${name}: did not report (exit ${status})`);
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const failedSuites = report.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  ).length;
  const passed = report.numPassedTests;
  const failed = report.numFailedTests + failedSuites;
  const skipped = report.numPendingTests + report.numTodoTests;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${name}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  // Name what failed next to the counts: the end of a long log is often all that is kept.
  for (const file of report.testResults) {
    const rel = path.relative(cwd, file.name);
    const failures = file.assertionResults.filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failures.length === 0) {
      lines.push(`  ✗ ${rel}: ${firstLine(file.message)}`);
    }
    for (const a of failures) {
      lines.push(`  ✗ ${rel} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    }
  }
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 300);
}

// Lint (Biome and the import boundaries) counts as one test: CI fails on a violation.
function lint() {
  const status = run('npm', ['run', 'lint']);
  if (status === 0) totals.passed += 1;
  else totals.failed += 1;
  lines.push(`lint: ${status === 0 ? '1 passed' : '1 failed (npm run lint)'}`);
}

/** Runs test files with Node's test runner: every `*.test.ts` of `testDir`, or `opts.files`; on `opts.node`. */
function nodeTest(name, dir, testDir, opts = {}) {
  const cwd = path.join(root, dir);
  const tap = path.join(tmp, `${name.replace(/\W+/g, '-')}.tap`);
  // Node 20's test runner does not expand globs: list the files here.
  const files =
    opts.files ??
    readdirSync(path.join(cwd, testDir))
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => path.join(testDir, f));
  if (files.length === 0) {
    lines.push(`${name}: no tests`);
    return;
  }
  run(
    opts.node ?? process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=1',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { cwd },
  );
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const num = (k) => Number((new RegExp(`^# ${k} (\\d+)`, 'm').exec(text) ?? [])[1] ?? 0);
  const passed = num('pass');
  const failed = num('fail') + num('cancelled') + (text ? 0 : 1);
  const skipped = num('skipped') + num('todo');
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  lines.push(`${name}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  for (const m of text.matchAll(/^\s*not ok \d+ - (.*)$/gm)) lines.push(`  ✗ ${m[1].slice(0, 300)}`);
}

ensureInstalled();
for (const suite of suites) {
  if (suite === 'lint') lint();
  else if (suite === 'contract') vitest('contract', 'packages/contract');
  else if (suite === 'server') vitest('server', 'apps/server');
  else if (suite === 'server-node24') {
    const node = otherNode();
    if (node) vitest('server on Node 24 (pglite)', 'apps/server', { node, project: 'pglite' });
    else {
      totals.failed += 1;
      lines.push(`server on Node 24: ${OTHER_NODE} could not be fetched from the npm registry`);
    }
  } else if (suite === 'simulator') vitest('simulator', 'apps/simulator');
  else if (suite === 'web') vitest('web', 'apps/web');
  // The reliability suite: kill -9 of the server, a database restart (apps/server/crash, docs/deploying.md).
  else if (suite === 'crash') nodeTest('crash', 'apps/server', 'crash');
  else if (suite === 'e2e') {
    if (!ensureChromium()) {
      lines.push('e2e: skipped (no chromium)');
      continue;
    }
    if (run('npm', ['run', 'build', '-w', 'apps/web']) !== 0) {
      totals.failed += 1;
      lines.push('e2e: web build failed');
      continue;
    }
    nodeTest('e2e', 'e2e', 'tests');
  } else if (suite === 'e2e-api-node24') {
    // The test runner and the server processes it starts (process.execPath) both run on OTHER_NODE.
    const node = otherNode();
    if (node) nodeTest('API journeys on Node 24', 'e2e', 'tests', { node, files: API_JOURNEYS });
    else {
      totals.failed += 1;
      lines.push(`API journeys on Node 24: ${OTHER_NODE} could not be fetched from the npm registry`);
    }
  } else {
    console.error(`unknown suite ${suite}; one of ${all.join(', ')}`);
    process.exit(2);
  }
}
rmSync(tmp, { recursive: true, force: true });
console.log('\nSummary');
for (const l of lines) console.log(`  ${l}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
