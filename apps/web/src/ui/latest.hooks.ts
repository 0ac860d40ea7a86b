import { useEffect, useRef, type RefObject } from 'react';

/**
 * A ref that holds `value` as of the last render: a stable callback (or a listener added once)
 * reads it instead of depending on the value, so memoised children skip the re-renders a new
 * callback would cause.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}
