export * from './driver.ts';
export * from './settings.ts';
export * from './camera.ts';
export * from './host.ts';
export * from './host-link.ts';
