import { cycleIndex, startIndex } from '@forecourt/contract/rules';
import { useState } from 'react';

export interface Carousel {
  /** The shown item's index: 0 for an empty list. */
  index: number;
  prev: () => void;
  next: () => void;
}

/**
 * One item of a list at a time with Prev/Next, as the terminal battery, flash drive, environment and
 * local time widgets show them. Prev and Next wrap around. Whenever the list changes (other items or
 * another order: compared by `ids`), the start item is selected again; a poll that answers the same
 * list keeps the choice.
 *
 * @param ids one stable id per item, in list order
 * @param start the item shown first: `start` modulo the count. @default 0
 */
export function useCarousel(ids: readonly (string | number)[], start = 0): Carousel {
  const count = ids.length;
  const listKey = `${start}:${ids.join('\u0000')}`;
  const first = startIndex(start, count);
  const [state, setState] = useState({ listKey, index: first });
  const changed = state.listKey !== listKey;
  if (changed) setState({ listKey, index: first });
  const index = count === 0 ? 0 : (changed ? first : state.index) % count;
  const move = (delta: number) => setState({ listKey, index: cycleIndex(index, delta, count) });
  return { index, prev: () => move(-1), next: () => move(1) };
}
