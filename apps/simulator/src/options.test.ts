import { describe, expect, it } from 'vitest';
import { DEMO_BEHAVIOUR, type Options, parseArgs, UsageError } from './options.ts';

describe('command line', () => {
  it('defaults to the demo: the local server, the demo agent, every terminal, modest rates', () => {
    const o = parseArgs([]) as Options;
    expect(o).toMatchObject({
      url: 'http://127.0.0.1:8080',
      username: 'agent',
      password: 'demo1234',
      terminals: null,
    });
    expect(o.behaviour).toEqual(DEMO_BEHAVIOUR);
  });

  it('takes load options: --terminals 500 --rate 2 sends one request a second per terminal', () => {
    const o = parseArgs(['--terminals', '500', '--rate', '2', '--url=http://10.0.0.5:9000/']) as Options;
    expect(o.terminals).toBe(500);
    expect(o.behaviour.rate).toBe(2);
    expect(o.behaviour.batch).toBe(2);
    expect(o.url).toBe('http://10.0.0.5:9000');
    expect((parseArgs(['--rate', '10', '--batch', '50']) as Options).behaviour.batch).toBe(50);
    expect((parseArgs([]) as Options).behaviour.installFailShare).toBe(0);
    expect((parseArgs(['--install-failure-rate', '0.25']) as Options).behaviour.installFailShare).toBe(0.25);
    expect(() => parseArgs(['--install-failure-rate', '2'])).toThrow(
      /--install-failure-rate must be a number from 0 to 1/,
    );
  });

  it('reads credentials from the environment the server passes', () => {
    const o = parseArgs([], {
      SIMULATOR_USERNAME: 'installer',
      SIMULATOR_PASSWORD: 'pw12',
      SIMULATOR_URL: 'http://h:1',
    });
    expect(o).toMatchObject({ username: 'installer', password: 'pw12', url: 'http://h:1' });
  });

  it('names the bad flag', () => {
    const cases: [string[], RegExp][] = [
      [['--terminals', '0'], /--terminals must be a number from 1/],
      [['--rate', 'fast'], /--rate must be a number/],
      [['--url', 'ftp://x'], /--url must be an http\(s\) URL/],
      [['--rate'], /--rate needs a value/],
      [['--bogus'], /unknown option --bogus/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseArgs(argv)).toThrow(UsageError);
      expect(() => parseArgs(argv)).toThrow(message);
    }
    expect(parseArgs(['--help'])).toBe('help');
  });
});
