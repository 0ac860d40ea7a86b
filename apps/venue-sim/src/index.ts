import type { FastifyBaseLogger } from 'fastify';

export type VenueOptions = { serverUrl: string; deviceToken: string; log?: Pick<FastifyBaseLogger, 'info' | 'warn'> };

/** Starts the simulated venue against a running server. Filled in by the venue issue (#4). */
export async function startVenue(opts: VenueOptions): Promise<{ stop: () => Promise<void> }> {
  opts.log?.info('venue simulator: no hosts yet');
  return { stop: async () => {} };
}
