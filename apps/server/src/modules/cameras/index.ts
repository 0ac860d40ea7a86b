/** The cameras area's public face: what other areas and the app may use of it (the rest is its own). */
export { registerCameras } from './cameras.module.ts';
export { hostReportedConfigs } from './camera-configs.service.ts';
export { CameraHub, CAMERAS_ROOM, type DeviceSocket, type HostRef } from './cameras.service.ts';
export { streamRoom } from './frame-pacer.ts';
