/** Header slot; built by its issue. */
export function HeaderEvent() {
  return null;
}
