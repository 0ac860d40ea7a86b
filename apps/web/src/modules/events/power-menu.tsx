/** Header slot; built by its issue. */
export function PowerMenu() {
  return null;
}
