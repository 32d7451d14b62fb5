import { startFleet } from './fleet.ts';
import { type Options, parseArgs, USAGE, UsageError } from './options.ts';
import type { Stats } from './terminal.ts';

const stamp = () => new Date().toISOString();

function summary(s: Stats, prev: Stats, seconds: number, running: number): string {
  const d = (k: keyof Stats) => s[k] - prev[k];
  return (
    `${running} terminals · last ${Math.round(seconds)} s: ${d('requests')} requests (${d('failures')} failed), ` +
    `${d('telemetry')} readings, ${d('transactions')} transactions, ${d('events')} events, ${d('shocks')} shocks, ` +
    `${d('pumpStatuses')} pump statuses, ${d('commands')} commands, ${d('outages')} outages`
  );
}

async function main() {
  let opts: Options | 'help';
  try {
    opts = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`simulate: ${err.message}\n${USAGE}`);
      process.exit(2);
    }
    throw err;
  }
  if (opts === 'help') {
    console.log(USAGE);
    return;
  }
  const o = opts;
  const log = (level: 'info' | 'warn', message: string) => {
    if (o.quiet && level === 'info') return;
    (level === 'warn' ? console.error : console.log)(`${stamp()} ${level} ${message}`);
  };
  const abort = new AbortController();
  let stop = () => abort.abort();
  const onSignal = () => {
    stop();
    process.exit(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The server that started us closes our stdin when it goes: follow it.
  if (process.env.SIMULATOR_PARENT === '1') {
    process.stdin.on('end', onSignal);
    process.stdin.on('error', onSignal);
    process.stdin.resume();
  }

  const fleet = await startFleet(o, log, abort.signal);
  stop = fleet.stop;
  if (o.reportS > 0 && !o.quiet) {
    let prev = { ...fleet.stats };
    let at = Date.now();
    setInterval(() => {
      const now = Date.now();
      log('info', summary(fleet.stats, prev, (now - at) / 1000, fleet.terminals.length));
      prev = { ...fleet.stats };
      at = now;
    }, o.reportS * 1000);
  }
}

main().catch((err) => {
  console.error(`${stamp()} error simulator stopped: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
