import { describe, expect, it, vi } from 'vitest';
import { createReadsCursor, EARLY_READ_EPOCH } from './live-stream-state.ts';

describe('where the first stream resumes from (reads cursor)', () => {
  it('is the oldest X-Live-Cursor of the reads answered before the stream opens, early reads included', () => {
    const reads = createReadsCursor();
    reads.answered('40', reads.epoch());
    reads.answered('38', EARLY_READ_EPOCH);
    reads.answered('45', reads.epoch());
    expect(reads.take(() => {})).toBe(38);
  });

  it('is nothing when a read came without one (or one that is not an id), or when there were no reads', () => {
    const reads = createReadsCursor();
    reads.answered('40', reads.epoch());
    reads.answered(null, reads.epoch());
    expect(reads.take(() => {})).toBeNull();
    const garbled = createReadsCursor();
    garbled.answered('4e1', garbled.epoch());
    expect(garbled.take(() => {})).toBeNull();
    expect(createReadsCursor().take(() => {})).toBeNull();
  });

  it('a read sent before the stream took its starting point and answered after it with an older cursor is late', () => {
    const reads = createReadsCursor();
    const sentBefore = reads.epoch();
    reads.answered('50', sentBefore);
    const late = vi.fn();
    expect(reads.take(late)).toBe(50);
    reads.answered('50', sentBefore);
    reads.answered('51', sentBefore);
    expect(late).not.toHaveBeenCalled();
    reads.answered('49', sentBefore);
    expect(late).toHaveBeenCalledTimes(1);
    reads.answered(null, EARLY_READ_EPOCH);
    expect(late).toHaveBeenCalledTimes(2);
    // Sent after: the stream covers it.
    reads.answered('10', reads.epoch());
    expect(late).toHaveBeenCalledTimes(2);
  });

  it('after a reset (signed out) the next stream starts from the reads made from then on', () => {
    const reads = createReadsCursor();
    reads.answered('20', reads.epoch());
    const late = vi.fn();
    reads.take(late);
    reads.reset();
    reads.answered('5', EARLY_READ_EPOCH);
    expect(late).not.toHaveBeenCalled();
    reads.answered('30', reads.epoch());
    expect(reads.take(() => {})).toBe(30);
  });
});
