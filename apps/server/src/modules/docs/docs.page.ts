/**
 * The API page for people (the operators' IT, camera vendors): the OpenAPI document read as
 * HTML on the server. No script and nothing from another origin; the JSON is one link away.
 */

type Doc = {
  info: { title: string; description: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, Op>>;
  components: { responses: Record<string, { description: string }> };
};
type Op = {
  operationId: string;
  tags: string[];
  description: string;
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; description?: string; content?: Record<string, { schema: unknown }> }>;
};

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** `code` spans of the generated texts, escaped first. */
const prose = (s: string) => escape(s).replace(/`([^`]+)`/g, '<code>$1</code>');
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

function renderOp(method: string, path: string, op: Op, responses: Doc['components']['responses']): string {
  const params = op.parameters?.length
    ? `<table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr></thead><tbody>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escape(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td><code>${escape(JSON.stringify(p.schema))}</code></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const body = op.requestBody
    ? Object.entries(op.requestBody.content)
        .map(([type, c]) => `<h4>Body (${escape(type)})</h4>${json(c.schema)}`)
        .join('')
    : '';
  const answers = Object.entries(op.responses)
    .map(([status, r]) => {
      const text = r.$ref ? responses[r.$ref.split('/').pop()!].description : (r.description ?? '');
      const schema = r.content?.['application/json']?.schema;
      const ok = !r.$ref && schema ? `<details><summary>Schema</summary>${json(schema)}</details>` : '';
      return `<li><b>${escape(status)}</b> ${prose(text)}${ok}</li>`;
    })
    .join('');
  return `<details class="op" id="${escape(op.operationId)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code> <span class="id">${escape(op.operationId)}</span></summary>
<p>${prose(op.description)}</p>${params}${body}<h4>Answers</h4><ul>${answers}</ul></details>`;
}

export function renderApiPage(doc: Doc): string {
  const byTag = new Map<string, string[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      byTag.get(op.tags[0])?.push(renderOp(method, path, op, doc.components.responses));
    }
  }
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${escape(t)}">${escape(t)}</a>`).join(' ');
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<section id="tag-${escape(tag)}"><h2>${escape(tag)}</h2>${ops.join('\n')}</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title>
<style>
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--mute:#4a5562;--line:#d0d7de;--code:#f3f5f7}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--mute:#adbac7;--line:#373e47;--code:#161b22}}
body{font:15px/1.5 system-ui,sans-serif;color:var(--fg);background:var(--bg);max-width:1100px;margin:0 auto;padding:1rem}
a{color:inherit}nav{line-height:2}nav a{margin-right:.6rem}
code,pre{font:13px/1.4 ui-monospace,monospace;background:var(--code);border-radius:4px}
code{padding:0 .25rem;overflow-wrap:anywhere}pre{padding:.6rem;overflow:auto;max-height:28rem}
.op{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}
.op>summary{cursor:pointer;padding:.2rem 0}.id{color:var(--mute);font-size:13px}
.m{display:inline-block;min-width:4.2rem;text-align:center;font-weight:700;border-radius:4px;padding:0 .3rem;color:#fff}
.get{background:#1a5fb4}.post{background:#26734d}.put,.patch{background:#8a5a00}.delete{background:#a51d2d}
table{border-collapse:collapse;width:100%}th,td{border:1px solid var(--line);padding:.2rem .4rem;text-align:left;vertical-align:top}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
</style></head>
<body><main>
<h1>${escape(doc.info.title)}</h1>
<p>${prose(doc.info.description)}</p>
<p>The same as OpenAPI 3.1 JSON: <a href="/api/docs/openapi.json">/api/docs/openapi.json</a>.</p>
<nav aria-label="Areas">${toc}</nav>
${sections}
</main></body></html>`;
}
