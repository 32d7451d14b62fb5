import { describe, expect, it } from 'vitest';
import { ConfigError, loadEnv } from './env.ts';

function failure(env: NodeJS.ProcessEnv): string {
  try {
    loadEnv(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('loadEnv', () => {
  it('gives the documented defaults for an empty environment', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(8080);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.SEED).toBe('demo');
    expect(env.SIMULATOR).toBe(true);
    expect(env.POLL_CACHE_MS).toBe(2000);
    expect(env.CONNECTIVITY_TIMEOUT).toBe(300);
    expect(env.REGISTRATION).toBe('open');
    expect(env.AUTH_HEADER).toBe('Authorization');
  });

  it('reads POLL_CACHE_MS from 0 (no sharing) to 12500', () => {
    expect(loadEnv({ POLL_CACHE_MS: '0' }).POLL_CACHE_MS).toBe(0);
    expect(loadEnv({ POLL_CACHE_MS: '10000' }).POLL_CACHE_MS).toBe(10_000);
    for (const bad of ['-1', '12501', '1.5', 'soon']) {
      const message = failure({ POLL_CACHE_MS: bad });
      expect(message).toContain('POLL_CACHE_MS');
      expect(message).toContain('0 to 12500');
      expect(message).toContain(JSON.stringify(bad));
    }
  });

  it('reads LIVE_MAX_STREAMS_PER_ADDRESS: 80 by default, else a whole number from 1', () => {
    expect(loadEnv({}).LIVE_MAX_STREAMS_PER_ADDRESS).toBe(80);
    expect(loadEnv({ LIVE_MAX_STREAMS_PER_ADDRESS: '500' }).LIVE_MAX_STREAMS_PER_ADDRESS).toBe(500);
    for (const bad of ['0', '-3', '2.5', 'many']) {
      const message = failure({ LIVE_MAX_STREAMS_PER_ADDRESS: bad });
      expect(message).toContain('LIVE_MAX_STREAMS_PER_ADDRESS: must be a whole number from 1 to 10000000');
    }
  });

  it('names every bad variable on one line', () => {
    const message = failure({ PORT: '70000', SEED: 'lots', CONNECTIVITY_TIMEOUT: 'soon' });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('PORT: must be a port number from 0 to 65535 (got "70000")');
    expect(message).toContain('SEED: must be demo, none or large (got "lots")');
    expect(message).toContain('CONNECTIVITY_TIMEOUT must be a duration like 300, 90s, 5m or 1h');
  });

  it('reads TRUST_PROXY: off by default, else the proxies whose X-Forwarded-For is believed', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['on', 'true', '10.0.0.0/33', '10.0.0.1,,10.0.0.2', 'proxy.example.com', '*']) {
      const message = failure({ TRUST_PROXY: bad });
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(
        'TRUST_PROXY: must be off or a comma-separated list of proxy addresses or CIDRs',
      );
    }
  });

  it('reads LOG_FORMAT (json or pretty; unset: by terminal) and METRICS_TOKEN (unset: no /metrics)', () => {
    expect(loadEnv({}).LOG_FORMAT).toBeUndefined();
    expect(loadEnv({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadEnv({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
    expect(failure({ LOG_FORMAT: 'xml' })).toContain('LOG_FORMAT: must be json or pretty (got "xml")');
    expect(loadEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ METRICS_TOKEN: 'a-long-enough-token' }).METRICS_TOKEN).toBe('a-long-enough-token');
    const message = failure({ METRICS_TOKEN: 'short' });
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('METRICS_TOKEN: must be at least 16 characters');
  });

  it('reads durations with units', () => {
    expect(loadEnv({ CONNECTIVITY_TIMEOUT: '90s' }).CONNECTIVITY_TIMEOUT).toBe(90);
    expect(loadEnv({ CONNECTIVITY_TIMEOUT: '5m' }).CONNECTIVITY_TIMEOUT).toBe(300);
    expect(loadEnv({ CONNECTIVITY_TIMEOUT: '1500ms' }).CONNECTIVITY_TIMEOUT).toBe(1.5);
    expect(failure({ CONNECTIVITY_TIMEOUT: '0' })).toContain('CONNECTIVITY_TIMEOUT must be greater than 0');
  });

  it('wants the Zendesk variables together', () => {
    expect(failure({ ZENDESK_SUBDOMAIN: 'acme' })).toContain('must be set together');
    const env = loadEnv({ ZENDESK_SUBDOMAIN: 'acme', ZENDESK_EMAIL: 'a@b.c', ZENDESK_TOKEN: 't' });
    expect(env.ZENDESK_SUBDOMAIN).toBe('acme');
  });

  it('accepts only PostgreSQL URLs for DATABASE_URL', () => {
    expect(failure({ DATABASE_URL: 'mysql://x' })).toContain(
      'DATABASE_URL: must be a URL starting with postgres:',
    );
    expect(loadEnv({ DATABASE_URL: 'postgres://127.0.0.1/test' }).DATABASE_URL).toBe(
      'postgres://127.0.0.1/test',
    );
  });
  it('reads WEBHOOK_ALLOWED_HOSTS as host names, addresses and CIDRs, and DELIVERY_RETRY_DELAYS', () => {
    expect(loadEnv({}).WEBHOOK_ALLOWED_HOSTS).toEqual([]);
    expect(
      loadEnv({ WEBHOOK_ALLOWED_HOSTS: 'hooks.internal, 10.0.0.0/8,[fd00::1],127.0.0.2' })
        .WEBHOOK_ALLOWED_HOSTS,
    ).toEqual(['hooks.internal', '10.0.0.0/8', 'fd00::1', '127.0.0.2']);
    for (const bad of ['10.0.0.0/33', 'http://x', 'a b', 'x,,y'])
      expect(failure({ WEBHOOK_ALLOWED_HOSTS: bad })).toMatch(
        /^Invalid configuration: WEBHOOK_ALLOWED_HOSTS/,
      );
    expect(loadEnv({}).DELIVERY_RETRY_DELAYS.slice(0, 5)).toEqual([10, 30, 120, 600, 3600]);
    expect(loadEnv({ DELIVERY_RETRY_DELAYS: '0.5,2' }).DELIVERY_RETRY_DELAYS).toEqual([0.5, 2]);
    expect(failure({ DELIVERY_RETRY_DELAYS: '5,soon' })).toMatch(/DELIVERY_RETRY_DELAYS/);
  });
  it('reads DELIVERY_RETENTION_DAYS: 30 by default, else whole days from 1', () => {
    expect(loadEnv({}).DELIVERY_RETENTION_DAYS).toBe(30);
    expect(loadEnv({ DELIVERY_RETENTION_DAYS: '7' }).DELIVERY_RETENTION_DAYS).toBe(7);
    for (const bad of ['0', '1.5', 'month', '-3'])
      expect(failure({ DELIVERY_RETENTION_DAYS: bad })).toContain(
        'DELIVERY_RETENTION_DAYS: must be a whole number of days from 1 to 36500',
      );
  });
});
