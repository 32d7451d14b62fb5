export * from './auth.ts';
export * from './changes.ts';
export * from './commands.ts';
export * from './events.ts';
export * from './idempotency.ts';
export * from './org.ts';
export * from './telemetry-history.ts';
export * from './tickets.ts';
