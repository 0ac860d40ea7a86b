import { useCallback, useState } from 'react';
import { isShiftHeld } from '../../ui/shift-key.ts';

type Selection = { ids: Set<string>; last: number | null };

/**
 * Album selection (spec 1 §4): toggle one, select all, deselect all, and with Shift held the
 * interval from the last selected tile to this one. Indexes are those of the visible page.
 */
export function useSelection() {
  const [state, setState] = useState<Selection>({ ids: new Set(), last: null });

  const toggle = useCallback((index: number, ids: readonly string[]) => {
    setState((s) => {
      const next = new Set(s.ids);
      const id = ids[index];
      if (isShiftHeld() && s.last !== null && s.last !== index) {
        const [from, to] = s.last < index ? [s.last, index] : [index, s.last];
        for (let i = from; i <= to; i++) if (ids[i]) next.add(ids[i]);
      } else if (next.has(id)) {
        next.delete(id);
      } else {
        next.add(id);
      }
      return { ids: next, last: index };
    });
  }, []);

  const selectAll = useCallback((ids: readonly string[]) => setState({ ids: new Set(ids), last: null }), []);
  const clear = useCallback(() => setState({ ids: new Set(), last: null }), []);
  /** Drops ids that left the list (deleted, page changed by a live update). */
  const keepOnly = useCallback(
    (ids: readonly string[]) =>
      setState((s) => {
        const visible = new Set(ids);
        const kept = [...s.ids].filter((id) => visible.has(id));
        return kept.length === s.ids.size ? s : { ids: new Set(kept), last: null };
      }),
    [],
  );

  return { selected: state.ids, toggle, selectAll, clear, keepOnly };
}
