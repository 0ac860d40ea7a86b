import type { App } from '../app.ts';
import type { Deps } from '../deps.ts';
import { authModule } from './auth/auth.routes.ts';

/** Every area registers its routes and socket handlers here, one line each. */
export const modules: ((app: App, deps: Deps) => void | Promise<void>)[] = [authModule];
