import * as contract from '@stadiumcam/contract';
import type { RouteDef } from '@stadiumcam/contract';

export type ContractRoute = { area: string; name: string; def: RouteDef };

/**
 * Every route object of the contract: the values of each exported `<area>Routes` map. The
 * OpenAPI document is built from it and the guard test checks the server registers each.
 */
export function contractRoutes(): ContractRoute[] {
  return Object.entries(contract as Record<string, unknown>)
    .filter(([key, value]) => key.endsWith('Routes') && typeof value === 'object' && value !== null)
    .flatMap(([key, map]) =>
      Object.entries(map as Record<string, RouteDef>)
        .filter(([, def]) => typeof def?.method === 'string' && typeof def?.path === 'string')
        .map(([name, def]) => ({ area: key.slice(0, -'Routes'.length), name, def })),
    );
}
