import { describe, expect, it } from 'vitest';
import {
  decodeChange,
  decodeChanges,
  decodeReset,
  encodeChange,
  encodeChanges,
  encodedChanges,
  encodeReset,
  LIVE_CHANGE_KINDS,
  LIVE_PATH,
  type LiveChange,
  LiveDecodeError,
} from './live.ts';

const at = '2026-11-24T10:00:00.000Z';
const full: LiveChange = {
  id: 1234,
  kind: 'telemetry',
  agent_id: 1,
  company_id: 2,
  site_id: 5,
  terminal: 17,
  at,
};

describe('the live change codec', () => {
  it('names the one path of the stream', () => {
    expect(LIVE_PATH).toBe('/api/live');
  });

  it('writes a change as the stream carries it: snake_case, fixed key order, ids not known left out', () => {
    expect(encodeChange(full)).toBe(
      '{"id":1234,"kind":"telemetry","agent_id":1,"company_id":2,"site_id":5,"terminal":17,"at":"2026-11-24T10:00:00.000Z"}',
    );
    expect(encodeChange({ id: 3, kind: 'pump', pump: 9, site_id: 4, at })).toBe(
      `{"id":3,"kind":"pump","site_id":4,"pump":9,"at":"${at}"}`,
    );
    expect(encodeChanges([full, { id: 1235, kind: 'fleet', agent_id: 1, at }])).toBe(
      `[${encodeChange(full)},{"id":1235,"kind":"fleet","agent_id":1,"at":"${at}"}]`,
    );
    expect(encodedChanges(['{"a":1}', '{"b":2}'])).toBe('[{"a":1},{"b":2}]');
    expect(encodeReset({ id: 42 })).toBe('{"id":42}');
  });

  it('reads back what it writes, for every kind', () => {
    const changes = LIVE_CHANGE_KINDS.map(
      (kind, i): LiveChange => ({ id: i + 1, kind, site_id: 7, pump: 3, at }),
    );
    expect(decodeChanges(encodeChanges(changes))).toEqual(changes);
    expect(decodeChanges(encodeChanges([full]))).toEqual([full]);
    expect(decodeReset(encodeReset({ id: 0 }))).toEqual({ id: 0 });
  });

  it('reads a null id as absent', () => {
    expect(decodeChange({ id: 10, kind: 'fleet', agent_id: 7, company_id: null, at })).toEqual({
      id: 10,
      kind: 'fleet',
      agent_id: 7,
      at,
    });
  });

  it('refuses what the stream never sends, saying what is wrong', () => {
    const bad: Array<[string, string]> = [
      ['not json', 'not JSON'],
      ['{"id":1}', 'non-empty array'],
      ['[]', 'non-empty array'],
      ['[1]', 'must be an object'],
      [JSON.stringify([{ id: 1, kind: 'teleportation', at }]), 'kind must be one of'],
      [JSON.stringify([{ id: 0, kind: 'alert', at }]), 'id must be'],
      [JSON.stringify([{ id: 1.5, kind: 'alert', at }]), 'id must be'],
      [JSON.stringify([{ id: 1, kind: 'alert', site_id: -3, at }]), 'site_id must be'],
      [JSON.stringify([{ id: 1, kind: 'alert', terminal: '17', at }]), 'terminal must be'],
      [JSON.stringify([{ id: 1, kind: 'alert' }]), 'at must be'],
      [JSON.stringify([{ id: 1, kind: 'alert', at: 'yesterday' }]), 'at must be'],
      [JSON.stringify([{ id: 1, kind: 'alert', at, user_id: 4 }]), 'unknown field "user_id"'],
      [
        JSON.stringify([
          { id: 2, kind: 'alert', at },
          { id: 1, kind: 'alert', at },
        ]),
        'id order',
      ],
    ];
    for (const [text, message] of bad) {
      expect(() => decodeChanges(text), text).toThrow(LiveDecodeError);
      expect(() => decodeChanges(text), text).toThrow(message);
    }
    for (const text of ['[]', '{"id":-1}', '{"id":1,"x":2}', '{"id":"1"}', 'null']) {
      expect(() => decodeReset(text), text).toThrow(LiveDecodeError);
    }
  });
});
