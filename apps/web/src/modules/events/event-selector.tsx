/** The shared event selector button + modal (events issue #3). */
export function EventSelector(_props: { multiple?: boolean; allowTemplate?: boolean; allowFuture?: boolean }) {
  return null;
}
