import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Areas keep to themselves (docs/architecture.md "Boundaries"): eslint.config.js refuses an
 * import of another area's inner file; this test refuses a circle between areas, read from the
 * areas' own code (tests and test helpers may reach any area).
 */
const modules = path.join(import.meta.dirname, 'modules');
const areas = readdirSync(modules, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** area -> the other areas its code imports. */
function areaImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const area of areas) {
    const uses = new Set<string>();
    for (const file of readdirSync(path.join(modules, area))) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file.endsWith('.test-util.ts')) continue;
      const code = readFileSync(path.join(modules, area, file), 'utf8');
      for (const [, other] of code.matchAll(/from '\.\.\/([a-z-]+)\//g)) if (other !== area) uses.add(other);
    }
    graph.set(area, uses);
  }
  return graph;
}

/** Every circle of the graph, each once (as the path from its smallest area back to it). */
export function circles(graph: Map<string, Set<string>>): string[][] {
  const found = new Map<string, string[]>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) {
        const circle = [...trail, start];
        found.set([...circle].sort().join(), circle);
      } else if (!trail.includes(next) && next > start) walk(start, next, [...trail, next]);
    }
  };
  for (const area of graph.keys()) walk(area, area, [area]);
  return [...found.values()];
}

describe('areas', () => {
  it('finds a circle, of two areas or more', () => {
    const graph = new Map([
      ['auth', new Set(['users'])],
      ['users', new Set(['auth', 'roles'])],
      ['roles', new Set(['events'])],
      ['events', new Set(['users'])],
    ]);
    expect(circles(graph)).toEqual([
      ['auth', 'users', 'auth'],
      ['events', 'users', 'roles', 'events'],
    ]);
  });

  it('no two areas import each other, directly or round a circle', () => {
    const graph = areaImports();
    expect([...graph.values()].some((uses) => uses.size > 0)).toBe(true);
    expect(circles(graph)).toEqual([]);
  });
});
