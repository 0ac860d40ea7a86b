/*
 * The protocol's plumbing moved to the shared host package (`packages/camera-host`), which both
 * the simulator and the ONVIF host use; this path stays for the browser tests' fake host.
 */
export {
  HostLink,
  uploadPhoto,
  type HelloAnswer,
  type HostLinkOptions,
  type HostSocket,
} from '@stadiumcam/camera-host';
