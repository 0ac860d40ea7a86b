export * from './config.ts';
export * from './host.ts';
export * from './onvif-driver.ts';
export * from './snapshot.ts';
export * from './space.ts';
