/** Header slot; built by its issue. */
export function LiveMetricsButton() {
  return null;
}
