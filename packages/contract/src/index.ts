export * from './route.ts';
export * from './permissions.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './events.ts';
export * from './auth.contract.ts';
export * from './users.contract.ts';
export * from './roles.contract.ts';
