/**
 * With --fold-versions, other versions of a skill (the same name or folder name, a sem edge of cosine at least
 * VERSION_SEM: one skill republished, or translated) are folded into the highest-ranked one: a
 * library that ships each skill in several languages does not answer one skill several times. A
 * skill that only shares a name is not a version.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillc } from '../helpers/cli.js';
import { scratchDir } from '../helpers/tmp.js';
import { openRetriever } from '../../src/query/retriever.js';
import { rank } from '../../src/query/rank.js';
import { renderPlanJson, renderQueryJson, renderQueryMarkdown } from '../../src/query/render.js';
import { validateAgainst } from '../../src/schema/validate.js';

const CODE = '```bash\nqpdf --empty --pages a.pdf b.pdf -- merged.pdf\nqpdf merged.pdf --split-pages=1 page-%d.pdf\npdftotext merged.pdf merged.txt\n```\n';
let dist: string;

beforeAll(() => {
  const root = scratchDir('query-versions');
  const skill = (dir: string, name: string, description: string, body: string) => {
    fs.mkdirSync(path.join(root, 'skills', dir), { recursive: true });
    fs.writeFileSync(path.join(root, 'skills', dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  };
  skill('en/pdf-tools', 'pdf-tools', 'Merge, split and extract text from PDF files with qpdf and pdftotext.', `# PDF tools\n\nMerge PDF files, split them into pages and extract their text.\n\n${CODE}`);
  skill('zh/pdf-tools', 'pdf-tools', '使用 qpdf 和 pdftotext 合并、拆分 PDF 文件并提取文本。', `# PDF 工具\n\n合并 PDF 文件，拆分页面并提取文本。\n\n${CODE}`);
  // A translation that renames the skill and keeps its folder is a version too.
  skill('ja/pdf-tools', 'PDF ツール', 'qpdf と pdftotext で PDF を結合、分割し、テキストを抽出します。', `# PDF ツール\n\nPDF を結合し、ページに分割し、テキストを抽出します。\n\n${CODE}`);
  // The same text under another name: a fork, not a version.
  skill('fork/pdf-kit', 'pdf-kit', 'Merge, split and extract text from PDF files with qpdf and pdftotext.', `# PDF kit\n\nMerge PDF files, split them into pages and extract their text.\n\n${CODE}`);
  skill('other/pdf-tools', 'pdf-tools', 'Fill PDF forms and sign PDF documents.', '# PDF forms\n\nFill the fields of a PDF form with pdftk, then sign the PDF.\n\n```bash\npdftk form.pdf fill_form data.fdf output filled.pdf\n```\n');
  skill('ocr', 'ocr-scans', 'Extract text from scanned PDF pages with OCR.', '# OCR\n\nRun tesseract on each page image to extract the text of a scanned PDF.\n');
  // Candidates for sem edges come from terms held by at most a tenth of the library (sem.ts): a
  // library of five skills would have none. Forty others, each on its own topic, make it one.
  const topics = ['kayak', 'violin', 'orchid', 'glacier', 'falcon', 'lantern', 'saffron', 'quartz', 'tundra', 'walrus'];
  const crafts = ['inventory', 'schedule', 'forecast', 'survey'];
  for (const t of topics) for (const c of crafts) skill(`misc/${t}-${c}`, `${t}-${c}`, `Keep the ${t} ${c} current.`, `# ${t} ${c}\n\nUpdate the ${t} ${c} every week and share the ${c} with the ${t} team.\n`);
  dist = path.join(root, 'dist');
  const r = skillc(['build', path.join(root, 'skills'), '-o', dist, '-q']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

describe('versions of a skill in a query', () => {
  it('folds the translations into the best-ranked version, and keeps a skill that only shares the name', async () => {
    const retriever = openRetriever(dist);
    try {
      const task = 'merge PDF files, split them into pages and extract the text';
      const unfolded = rank(retriever.index, task, 5).hits.map((h) => h.node.path);
      expect(unfolded.filter((p) => /^(en|zh|ja)\//.test(p))).toHaveLength(3);
      const r = await retriever.query(task, { k: 6, foldVersions: true });
      // Off by default: each version is its own hit.
      expect((await retriever.query(task, { k: 6 })).hits.filter((h) => /^(en|zh|ja)\//.test(h.node.path))).toHaveLength(3);
      const paths = r.hits.map((h) => h.node.path);
      const top = r.hits.find((h) => /^(en|zh|ja)\//.test(h.node.path))!;
      expect(paths.filter((p) => /^(en|zh|ja)\//.test(p))).toEqual([top.node.path]);
      expect([...top.versions!].sort()).toEqual(['en/pdf-tools', 'ja/pdf-tools', 'zh/pdf-tools'].filter((p) => p !== top.node.path));
      // The same name, another skill, and the same text, another name: their own hits.
      expect(paths).toContain('fork/pdf-kit');
      expect(paths).toContain('other/pdf-tools');
      expect(r.hits.find((h) => h.node.path === 'other/pdf-tools')!.versions).toBeUndefined();
      expect(renderQueryMarkdown(r)).toContain(`other versions of it (same name, other text): \`${top.versions![0]}\``);
      const json = JSON.parse(renderQueryJson(r)) as unknown;
      expect(validateAgainst('query-result', json).errors).toEqual([]);
      const plan = await retriever.plan(task, { k: 5, foldVersions: true });
      expect(plan.steps.filter((s) => /^(en|zh|ja)\//.test(s.node.path))).toHaveLength(1);
      expect(validateAgainst('plan-result', JSON.parse(renderPlanJson(plan)) as unknown).errors).toEqual([]);
    } finally {
      retriever.close();
    }
  });
});
