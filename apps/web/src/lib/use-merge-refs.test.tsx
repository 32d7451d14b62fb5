import { render } from '@testing-library/react';
import { createRef, type Ref } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useMergeRefs } from './use-merge-refs.ts';

function Probe({ refs }: { refs: Ref<HTMLDivElement>[] }) {
  return <div ref={useMergeRefs(refs)} data-testid="probe" />;
}

describe('useMergeRefs', () => {
  it('sets every ref of the list to the element, and clears them when it goes', () => {
    const object = createRef<HTMLDivElement>();
    const callback = vi.fn();
    const { getByTestId, unmount } = render(<Probe refs={[object, callback]} />);
    const element = getByTestId('probe');
    expect(object.current).toBe(element);
    expect(callback).toHaveBeenLastCalledWith(element);
    unmount();
    expect(object.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
  });
});
