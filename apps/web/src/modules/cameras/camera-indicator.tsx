/** Header slot; built by its issue. */
export function CameraIndicator() {
  return null;
}
