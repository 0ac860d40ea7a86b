import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as contract from '@stadiumcam/contract';
import { MSG, type RouteDef } from '@stadiumcam/contract';
import { describe, expect, it } from 'vitest';

/**
 * Keeps docs/spec-conformance.md true: every section of the three documents has rows (no
 * bypass), every file and test a row names exists, every text a requirement quotes (double or
 * single quotes) is in the contract (the message catalogue or an API text), every departure
 * quotes DESIGN §6. Format: docs/spec-conformance.md.
 */
const root = path.resolve(import.meta.dirname, '../../../..');
const read = (p: string) => readFileSync(path.join(root, p), 'utf8');
const DOCS = ['1-operator-shell.md', '2-template-config.md', '3-admin-tooling.md'];

export type Row = {
  section: string;
  line: number;
  id: string;
  requirement: string;
  where: string;
  test: string;
  /** Who checks a line no test can (a look, a layout): a screenshot path or a review, and why. */
  checkedBy: string;
};

/** The table's rows, each under the `### <doc> §<section>` heading it follows. */
export function parseTable(text: string): { sections: Map<string, Row[]>; problems: string[] } {
  const sections = new Map<string, Row[]>();
  const problems: string[] = [];
  let current: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    const heading = /^### ([123] §[^\s]+(?: .*)?)$/.exec(line);
    if (heading) {
      current = heading[1]!;
      sections.set(current, sections.get(current) ?? []);
      return;
    }
    if (!line.startsWith('|') || /^\|\s*(id|-+)\s*\|/.test(line)) return;
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (cells.length !== 4 && cells.length !== 5)
      return problems.push(`line ${i + 1}: a row needs 5 cells (id | requirement | where | test | checked by)`);
    if (!current) return problems.push(`line ${i + 1}: a row before any "### <doc> §<section>" heading`);
    const [id, requirement, where, test, checkedBy = ''] = cells as [string, string, string, string, string?];
    sections.get(current)!.push({ section: current, line: i + 1, id, requirement, where, test, checkedBy });
  });
  return { sections, problems };
}

/** `## 4. States` → "1 §4"; `### 2.3 Event Users page` → "3 §2.3"; unnumbered `### Graphics` under §2 → "2 §2 Graphics". */
export function documentSections(doc: number, text: string): string[] {
  const keys: string[] = [];
  let major = '';
  for (const line of text.split('\n')) {
    const h2 = /^## (\d+)\./.exec(line);
    if (h2) {
      major = h2[1]!;
      keys.push(`${doc} §${major}`);
      continue;
    }
    const h3 = /^### (?:(\d+\.\d+) )?(.+)$/.exec(line);
    if (h3) keys.push(h3[1] ? `${doc} §${h3[1]}` : `${doc} §${major} ${h3[2].trim()}`);
  }
  return keys;
}

/** The document sections (keys of {@link documentSections}) with no heading holding rows. */
export function sectionsWithoutRows(keys: string[], sections: Map<string, Row[]>): string[] {
  const headed = (key: string) =>
    [...sections.entries()].some(([h, rows]) => (h === key || h.startsWith(`${key} `)) && rows.length > 0);
  return keys.filter((key) => !headed(key));
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
const quoted = (cell: string) => [...cell.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
/**
 * The texts a requirement cell quotes: in double quotes, and in single quotes that open after
 * a space, `(` or the start and close before a space, punctuation or the end (so the apostrophe
 * of "event's" is none). Code and names in backticks are not texts.
 */
export function quotedTexts(cell: string): string[] {
  const text = cell.replace(/`[^`]*`/g, ' ');
  const double = quoted(text);
  const single = [...text.replace(/"[^"]*"/g, ' ').matchAll(/(?<=^|[\s(])'([^']+)'(?=$|[\s,;:.)])/g)].map((m) => m[1]);
  return [...double, ...single];
}
/** A test cell's parts: `` `file` › name `` or `departure …`, separated by `;` (test names may hold `;` too). */
const testParts = (cell: string) => cell.split(/;\s*(?=`|departure|fixture)/);
const isPath = (s: string) => /^(apps|packages|e2e|docs)\//.test(s);

/** The titles of a test file's `it(…)`, `test(…)` and `it.each(…)(…)` calls (string or template literal, escapes undone). */
export function testTitles(source: string): string[] {
  const re = /\b(?:it|test)(?:\.\w+)*(?:\([^()]*\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  return [...source.matchAll(re)].map((m) => m[2].replace(/\\(['"`\\])/g, '$1'));
}

/** A row names a test by its whole title; a `${…}` placeholder in a title stands for any text. */
export function titleMatches(title: string, name: string): boolean {
  if (title === name) return true;
  if (!title.includes('${')) return false;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${title
      .split(/\$\{[^}]*\}/)
      .map(escape)
      .join('.+')}$`,
  ).test(name);
}

/**
 * The body of the `it(…)`/`test(…)` call whose title matches `name`: from its line to the first
 * later line at the call's indentation that closes it (`})`, `},` or `)`; the files are
 * prettier-formatted, so indentation is exact), string escapes undone.
 */
export function testBody(source: string, name: string): string | undefined {
  const lines = source.split('\n');
  const re = /\b(?:it|test)(?:\.\w+)*(?:\([^()]*\))?\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  for (const m of source.matchAll(re)) {
    if (!titleMatches(m[2].replace(/\\(['"`\\])/g, '$1'), name)) continue;
    const first = source.slice(0, m.index).split('\n').length - 1;
    const indent = /^\s*/.exec(lines[first])![0].length;
    let last = first + 1;
    while (last < lines.length && !(/^\s*/.exec(lines[last])![0].length === indent && /^\s*[})]/.test(lines[last])))
      last++;
    const body = lines.slice(first, last + 1).join('\n');
    // `const r = snapshotsRoutes;` → `r.list` reads as `snapshotsRoutes.list`
    const aliases = [
      ...[...source.matchAll(/\bconst (\w+) = (\w+Routes);/g)].map((m) => [m[1], m[2]] as const),
      ...[...source.matchAll(/\b(\w+Routes) as (\w+)\b/g)].map((m) => [m[2], m[1]] as const),
    ];
    return aliases
      .reduce(
        (text, [alias, routes]) => text.replace(new RegExp(`(?<![\\w.])${alias}\\.`, 'g'), `${routes}.`),
        [body, ...helpersCalled(source, body)].join('\n'),
      )
      .replace(/(^|\s)\/\/.*$/gm, '$1') // a comment asserts nothing
      .replace(/\\(['"`\\])/g, '$1');
  }
  return undefined;
}

/**
 * The file's own helpers a test body calls (`const put = (…) => t().call(eventsRoutes.update, …)`,
 * `function expectError(…) {…}`) and file-level constants it reads (`FORBIDDEN_PATHS`), one level
 * deep: what they call, assert and list is the test's too.
 */
function helpersCalled(source: string, body: string): string[] {
  const lines = source.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const def =
      /^\s*(?:export )?(?:async )?(?:const (\w+) = (?:async )?(?:\([^)]*\)|\w+)(?:: [^=]+)? =>|function (\w+)\s*[<(])/.exec(
        line,
      );
    const constant = /^(?:export )?const ([A-Z][A-Z0-9_]+) = /.exec(line)?.[1]; // a file-level constant (`FORBIDDEN_PATHS`)
    const name = def?.[1] ?? def?.[2];
    const used = name
      ? new RegExp(`(?<![\\w.])${name}\\(`).test(body)
      : constant !== undefined && new RegExp(`(?<![\\w.])${constant}\\b`).test(body);
    if (!used) return;
    const indent = /^\s*/.exec(line)![0].length;
    let last = i;
    if (!/;\s*$/.test(line))
      do last++;
      while (
        last < lines.length &&
        !(/^\s*/.exec(lines[last])![0].length === indent && /^\s*[}\])]/.test(lines[last]))
      );
    out.push(lines.slice(i, last + 1).join('\n'));
  });
  return out;
}

/**
 * What a requirement quotes from the spec, each to be found in its test: texts in quotes, names
 * in backticks (not file paths; a capital `N` stands for a number) and numbers outside both
 * (not a row, section, spec, issue or point number).
 */
export function requirementTokens(cell: string): { texts: string[]; names: string[]; numbers: string[] } {
  const names = backticked(cell).filter((n) => !isPath(n));
  const prose = cell
    .replace(/`[^`]*`/g, ' ')
    .replace(/"[^"]*"/g, ' ')
    .replace(/(?<=^|[\s(])'[^']+'(?=$|[\s,;:.)])/g, ' ')
    .replace(
      /\b(?:rows?|spec|issue|point|DESIGN|§)\s*§?\s*\d+(?:[.\d]*\d)?(?:\s*(?:,|and|or)\s*\d+(?:[.\d]*\d)?)*/gi,
      ' ',
    )
    .replace(/§\s*\d+(?:[.\d]*\d)?/g, ' ')
    .replace(/\b\d+\.\d+\.\d+(?:\.\d+)*\b/g, ' ');
  const numbers = [...prose.matchAll(/(?<![\w.])\d+(?:\.\d+)?(?:\s*(?:ms|s|min|h|%|MB|px|fps)\b|\s*%)?/g)].map(
    (m) => m[0],
  );
  return { texts: quotedTexts(cell), names, numbers };
}

/** The numbers a body may write for one the spec gives with a unit (30 s as 30 or 30_000). */
function numberForms(token: string): number[] {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h|%|MB|px|fps)?$/.exec(token.trim())!;
  const n = Number(m[1]);
  const scale: Record<string, number[]> = {
    s: [1, 1000],
    min: [1, 60, 60_000],
    h: [1, 60, 3600, 3_600_000],
    '%': [1, 0.01],
    MB: [1, 1024 * 1024, 1_000_000],
  };
  return (scale[m[2] ?? ''] ?? [1]).map((k) => Math.round(n * k * 1e6) / 1e6);
}

/** The catalogue as path → text (`common.insufficientPermissions` → 'Insufficient permissions'). */
function catalogue(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: unknown, at: string) => {
    if (typeof node === 'string') out.set(at, node);
    else if (typeof node === 'function')
      out.set(at, `function ${String(node)}`); // a text built from values
    else if (node && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) walk(v, at ? `${at}.${k}` : k);
  };
  walk(MSG, '');
  return out;
}

/** Whether a test body holds a quoted text: written out (a `${n}` as a number), or as its catalogue key (also through `const M = MSG.area`). */
export function bodyHasText(body: string, source: string, text: string, msg: Map<string, string>): boolean {
  if (body.includes(text)) return true;
  // a text built from a value ("${n} Down") as the test shows it ('1 Down')
  const built = text.split(/\$\{[^}]+\}/);
  if (
    built.length > 1 &&
    new RegExp(built.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\d+')).test(body)
  )
    return true;
  const aliases = [...source.matchAll(/\bconst (\w+) = MSG\.([\w.]+);/g)].map((m) => [m[1], m[2]] as const);
  return [...msg].some(
    ([key, value]) =>
      (value === text || (value.startsWith('function ') && value.includes(text))) &&
      (new RegExp(`\\bMSG\\.${key.replace(/\./g, '\\.')}\\b`).test(body) ||
        aliases.some(
          ([alias, area]) => key.startsWith(`${area}.`) && body.includes(`${alias}.${key.slice(area.length + 1)}`),
        )),
  );
}

/** Whether a body holds a number in one of its forms (digit separators dropped). */
export function bodyHasNumber(body: string, token: string): boolean {
  const plain = body.replace(/(?<=\d)_(?=\d)/g, '');
  return numberForms(token).some((n) => new RegExp(`(?<![\\w.])${String(n).replace('.', '\\.')}(?![\\d])`).test(plain));
}

/** Every route of the contract as `authRoutes.session` → method and path. */
function contractRoutes(): { ref: string; method: string; path: string }[] {
  return Object.entries(contract)
    .filter(([name, value]) => name.endsWith('Routes') && value && typeof value === 'object')
    .flatMap(([name, routes]) =>
      Object.entries(routes as Record<string, RouteDef>)
        .filter(([, r]) => typeof r?.path === 'string')
        .map(([key, r]) => ({ ref: `${name}.${key}`, method: r.method, path: r.path })),
    );
}

/** A path as the spec writes it (`events/{slugDate}/delete/false`) against a contract path (`/api/events/:slugDate/delete/:all`), or its end. */
function samePath(spec: string, route: string, tail = false): boolean {
  const a = spec.replace(/^\/?(api\/)?/, '').split('/');
  const whole = route.replace(/^\/api\//, '').split('/');
  // a path the spec gives without its method is often the end of the route (`configs/queue`)
  const b = tail ? whole.slice(-a.length) : whole;
  const param = (seg: string) => /^(\{[^}]+\}|:\w+\??)$/.test(seg);
  return a.length === b.length && a.every((seg, i) => seg === b[i] || param(seg) || param(b[i]));
}

/** A backticked name as a pattern: `{x}` and `${…}` any value, `:x?` an optional segment, `YYYY`, `MM`, `DD`, `ddd`, `N` their digits or day. */
function namePattern(name: string): RegExp {
  const any = `(?:\\$\\{[^}]+\\}|[^/\\s'"\`?&]+)`;
  const parts = name
    .replace(/\/$/, '')
    .split(/(\{[^}]+\}|\/:\w+\?|:\w+|\bYYYY\b|\bMM\b|\bDD\b|\bddd\b|\bN\b)/)
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      if (part.startsWith('/:')) return `(?:/${any})?`;
      if (part === 'YYYY') return '(?:\\d{4}|\\$\\{[^}]+\\})';
      if (part === 'MM' || part === 'DD') return '(?:\\d{2}|\\$\\{[^}]+\\})';
      if (part === 'ddd') return '[A-Z][a-z]{2}';
      if (part === 'N') return '(?:\\d+|\\$\\{[^}]+\\})';
      return any;
    });
  return new RegExp(parts.join(''));
}

/**
 * Whether a body holds a backticked name: as written or as its pattern ({@link namePattern}); a
 * route (`PUT /events/{slugDate}`, or a path like `configs/queue`) also when the body calls the
 * contract route with that method and path; `MSG.area.key` also through an alias of `MSG.area`.
 */
export function bodyHasName(body: string, name: string, source = ''): boolean {
  if (body.includes(name)) return true;
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (name.startsWith('MSG.')) {
    const key = name.slice(4);
    const aliases = [...source.matchAll(/\bconst (\w+) = MSG\.([\w.]+);/g)];
    return aliases.some(
      ([, alias, area]) => key.startsWith(`${area}.`) && body.includes(`${alias}.${key.slice(area.length + 1)}`),
    );
  }
  const call = /^(?:(GET|POST|PUT|PATCH|DELETE) )?\/?([^?\s]+)(?:\?(\S+))?$/.exec(name);
  if (call && (call[1] || call[2].includes('/'))) {
    const [, method, route, query] = call as unknown as [string, string | undefined, string, string | undefined];
    const literal =
      new RegExp(`${namePattern(`/${route}`).source}(?![\\w/])`).test(body) &&
      (!method || new RegExp(`\\b${method}\\b|\\.${method.toLowerCase()}\\(`, 'i').test(body));
    // or called through the contract's route (`t().call(authRoutes.session)`) with that method and path
    const viaContract = contractRoutes().some(
      (r) =>
        (method ? r.method === method && samePath(route, r.path) : samePath(route, r.path, true)) &&
        new RegExp(`\\b${escape(r.ref)}\\b`).test(body),
    );
    const keys = (query ?? '')
      .split('&')
      .map((k) => k.replace(/=.*$/, '').replace(/\[\]$/, ''))
      .filter(Boolean);
    return (literal || viaContract) && keys.every((k) => body.includes(k));
  }
  return namePattern(name).test(body);
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => f.endsWith('.ts') && statSync(path.join(root, f)).isFile());
}

/** The contract's sources with string escapes undone, so a text is found as the spec writes it. */
function contractText(): string {
  return filesUnder('packages/contract/src')
    .filter((f) => !f.endsWith('.test.ts')) // a test's strings are not the contract
    .map((f) => read(f).replace(/\\(['"`])/g, '$1'))
    .join('\n');
}

const table = read('docs/spec-conformance.md');
const { sections, problems } = parseTable(table);
const rows = [...sections.values()].flat();

describe('the checker', () => {
  it('matches a row’s test name against whole test titles only', () => {
    const source =
      "it('saves it, then says \\'done\\'', () => {});\n  test.concurrent(`shot at ${w}×${h}`, () => {});\nit.each(PHONES)(\n  'at $width', () => {});";
    const titles = testTitles(source);
    expect(titles).toEqual(["saves it, then says 'done'", 'shot at ${w}×${h}', 'at $width']);
    expect(titles.some((t) => titleMatches(t, "saves it, then says 'done'"))).toBe(true);
    expect(titles.some((t) => titleMatches(t, 'shot at 1280×800'))).toBe(true);
    expect(titles.some((t) => titleMatches(t, 'saves it'))).toBe(false);
  });

  it('reads texts in double and single quotes, not apostrophes or backticked names', () => {
    expect(
      quotedTexts(`Shows "Oops..." and 'Delete role' ('Copied!'), the event's zone, the fans' app, room \`'map'\``),
    ).toEqual(['Oops...', 'Delete role', 'Copied!']);
    expect(quotedTexts(`"Template event doesn't exist" in 'Save your changes?'.`)).toEqual([
      "Template event doesn't exist",
      'Save your changes?',
    ]);
  });

  it('reads a test body with the helpers it calls, and finds texts, names and numbers there', () => {
    const source = [
      'const r = snapshotsRoutes;',
      "const PATHS = ['/config/camera'];",
      'const list = (q) => t().call(r.list, { query: q });',
      "it('lists', async () => {",
      '  await list({});',
      '  expect(MSG.common.insufficientPermissions).toBeTruthy();',
      '  expect(PATHS).toHaveLength(1);',
      '  expect(wait).toBe(30_000);',
      '});',
      "it('other', () => {",
      '  expect(1).toBe(260);',
      '});',
    ].join('\n');
    const body = testBody(source, 'lists')!;
    expect(body).not.toContain('260');
    const msg = new Map([['common.insufficientPermissions', 'Insufficient permissions']]);
    expect(bodyHasText(body, source, 'Insufficient permissions', msg)).toBe(true);
    expect(bodyHasText(body, source, 'Oops...', msg)).toBe(false);
    expect(bodyHasName(body, 'GET /snapshots', source)).toBe(true);
    expect(bodyHasName(body, 'POST /snapshots', source)).toBe(false);
    expect(bodyHasName(body, '/config/camera/', source)).toBe(true);
    expect(bodyHasName(body, '/config/mapping/', source)).toBe(false);
    expect(bodyHasNumber(body, '30 s')).toBe(true);
    expect(bodyHasNumber(body, '3')).toBe(false);
    expect(requirementTokens('Rotate every 30 s (row 1.2.3, spec 1 §9) in `monitor queue`, "Copied!"')).toEqual({
      texts: ['Copied!'],
      names: ['monitor queue'],
      numbers: ['30 s'],
    });
  });

  it('finds a document section without rows', () => {
    const table =
      '### 1 §2 Screens\n\n| id | requirement | where | test |\n| -- | -- | -- | -- |\n| 1.2.1 | x | y | z |\n';
    const { sections: parsed } = parseTable(table);
    const keys = documentSections(1, '## 2. Screens\n### Login\n## 3. Entities\n');
    expect(keys).toEqual(['1 §2', '1 §2 Login', '1 §3']);
    expect(sectionsWithoutRows(keys, parsed)).toEqual(['1 §2 Login', '1 §3']);
  });
});

describe('docs/spec-conformance.md', () => {
  it('is well formed', () => {
    expect(problems).toEqual([]);
    expect(rows.length).toBeGreaterThan(100);
  });

  it('numbers each row under its section, once', () => {
    const prefix = (section: string) => `${/^(\d) §(\S+)/.exec(section)!.slice(1).join('.')}.`;
    expect(
      rows.filter((r) => !r.id.startsWith(prefix(r.section))).map((r) => `line ${r.line}: ${r.id} under ${r.section}`),
      'an id starts with <doc>.<section>.',
    ).toEqual([]);
    const seen = new Set<string>();
    expect(rows.filter((r) => seen.size === seen.add(r.id).size).map((r) => `line ${r.line}: ${r.id}`)).toEqual([]);
  });

  it('has rows for every section of the three documents', () => {
    const all = DOCS.flatMap((file, i) => documentSections(i + 1, read(`docs/spec/${file}`)));
    expect(all.length).toBeGreaterThan(40);
    expect(
      sectionsWithoutRows(all, sections),
      'add a "### <doc> §<section> <title>" heading with rows for each',
    ).toEqual([]);
    const unknown = [...sections.keys()].filter((h) => !all.some((key) => h === key || h.startsWith(`${key} `)));
    expect(unknown, 'a heading that is no section of the documents').toEqual([]);
  });

  it('says "not built" nowhere and gives each row a place and a test or a departure', () => {
    const bad = rows.filter((r) => /not built/i.test(`${r.where} ${r.test}`) || !r.where || !r.test || !r.requirement);
    expect(bad.map((r) => `line ${r.line}`)).toEqual([]);
  });

  it('names only files that exist', () => {
    const missing = rows.flatMap((r) =>
      [...backticked(r.where), ...backticked(r.test), ...backticked(r.checkedBy)]
        .filter(isPath)
        .map((p) => p.replace(/[#:].*$/, ''))
        .filter((p) => !existsSync(path.join(root, p)))
        .map((p) => `line ${r.line}: ${p}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only tests that exist: `file` › test name', () => {
    const missing: string[] = [];
    for (const r of rows) {
      for (const part of testParts(r.test)) {
        if (/^(departure|fixture)/.test(part.trim())) continue;
        const m = /`([^`]+)`\s*›\s*(.+)$/.exec(part.trim());
        if (!m) {
          missing.push(`line ${r.line}: "${part.trim()}" is not \`file\` › test name`);
          continue;
        }
        const [, file, name] = m as unknown as [string, string, string];
        if (!existsSync(path.join(root, file))) continue; // reported by the file check
        if (!testTitles(read(file)).some((t) => titleMatches(t, name.trim())))
          missing.push(`line ${r.line}: ${file} has no test "${name.trim()}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names for each row tests whose bodies hold what the row quotes (texts, names, numbers)', () => {
    const msg = catalogue();
    const missing: string[] = [];
    let checked = 0;
    for (const r of rows) {
      if (r.checkedBy) continue; // a look or a layout: the 'checked by' column says who checks it
      const bodies: { body: string; source: string }[] = [];
      for (const part of testParts(r.test).map((p) => p.trim())) {
        const fixture = /^fixture `([^`]+)`/.exec(part);
        if (fixture && existsSync(path.join(root, fixture[1]))) bodies.push({ body: read(fixture[1]), source: '' });
        const m = /^`([^`]+)`\s*›\s*(.+)$/.exec(part);
        if (!m || !existsSync(path.join(root, m[1]))) continue; // reported by the checks above
        const source = read(m[1]);
        const body = testBody(source, m[2].trim());
        if (body) bodies.push({ body, source });
      }
      if (bodies.length === 0) continue; // a departure alone
      checked++;
      const { texts, names, numbers } = requirementTokens(r.requirement);
      const where = testParts(r.test)
        .map((p) => p.trim())
        .join(' | ');
      for (const t of texts)
        if (!bodies.some((b) => bodyHasText(b.body, b.source, t, msg)))
          missing.push(`line ${r.line} (${r.id}): text "${t}" is in no named test: ${where}`);
      for (const n of names)
        if (!bodies.some((b) => bodyHasName(b.body, n, b.source)))
          missing.push(`line ${r.line} (${r.id}): name \`${n}\` is in no named test: ${where}`);
      for (const n of numbers)
        if (!bodies.some((b) => bodyHasNumber(b.body, n)))
          missing.push(`line ${r.line} (${r.id}): number ${n} is in no named test: ${where}`);
    }
    if (process.env.TRACE_LIST) console.log(missing.join('\n')); // every miss, unabridged
    expect(checked).toBeGreaterThan(100);
    expect(
      missing,
      "assert the row's quoted texts, names and numbers in the test it names (or fix the row); a look or a layout no test can check says who does in 'checked by'",
    ).toEqual([]);
  });

  it("says in 'checked by' how a row no test checks is checked: a screenshot or a review", () => {
    const bad = rows.filter(
      (r) =>
        r.checkedBy && !(/^review\b.{10,}/i.test(r.checkedBy) || /^screenshot `docs\/[^`]+\.png`/.test(r.checkedBy)),
    );
    expect(
      bad.map((r) => `line ${r.line} (${r.id}): "${r.checkedBy}"`),
      "'checked by' is screenshot `docs/…png` (why) or review: why",
    ).toEqual([]);
  });

  it('quotes only texts the contract holds', () => {
    const contract = contractText();
    const missing = rows.flatMap((r) =>
      quotedTexts(r.requirement)
        .filter((t) => !contract.includes(t))
        .map((t) => `line ${r.line}: "${t}"`),
    );
    expect(
      missing,
      'every text quoted in a requirement, in double or single quotes, must be in packages/contract/src (messages.ts); names go in backticks',
    ).toEqual([]);
  });

  it('decides each departure by a line of DESIGN §6', () => {
    const design = read('docs/spec/DESIGN.md');
    const s6 = design.slice(design.indexOf('## 6.'), design.indexOf('## 7.'));
    const bad = rows.flatMap((r) =>
      testParts(r.test)
        .map((p) => p.trim())
        .filter((p) => p.startsWith('departure'))
        .filter((p) => quoted(p).length === 0 || quoted(p).some((t) => !s6.includes(t)))
        .map(() => `line ${r.line}`),
    );
    expect(bad, 'a departure quotes the DESIGN §6 line that decides it').toEqual([]);
  });

  it('is checked against the documents the product was built from', () => {
    const shared = path.resolve(root, '../shared');
    if (!existsSync(path.join(shared, 'spec'))) return; // a clone without the shared folder checks the copies only
    for (const file of DOCS)
      expect(read(`docs/spec/${file}`)).toBe(readFileSync(path.join(shared, 'spec', file), 'utf8'));
    expect(read('docs/spec/DESIGN.md')).toBe(readFileSync(path.join(shared, 'DESIGN.md'), 'utf8'));
  });
});
