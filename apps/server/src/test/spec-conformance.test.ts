import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
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

export type Row = { section: string; line: number; id: string; requirement: string; where: string; test: string };

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
    if (cells.length !== 4)
      return problems.push(`line ${i + 1}: a row needs 4 cells (id | requirement | where | test)`);
    if (!current) return problems.push(`line ${i + 1}: a row before any "### <doc> §<section>" heading`);
    const [id, requirement, where, test] = cells as [string, string, string, string];
    sections.get(current)!.push({ section: current, line: i + 1, id, requirement, where, test });
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
const testParts = (cell: string) => cell.split(/;\s*(?=`|departure)/);
const isPath = (s: string) => /^(apps|packages|e2e|docs)\//.test(s);

/** The titles of a test file's `it(…)` and `test(…)` calls (string or template literal, escapes undone). */
export function testTitles(source: string): string[] {
  const re = /\b(?:it|test)(?:\.\w+)*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
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
    const source = "it('saves it, then says \\'done\\'', () => {});\n  it.skip(`shot at ${w}×${h}`, () => {});";
    const titles = testTitles(source);
    expect(titles).toEqual(["saves it, then says 'done'", 'shot at ${w}×${h}']);
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
      [...backticked(r.where), ...backticked(r.test)]
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
        if (part.trim().startsWith('departure')) continue;
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
