import assert from 'node:assert/strict';
import { test } from 'node:test';
import { model } from '../../spec/model/index.js';
import { startForTest } from './helpers.js';
import { startReference } from '../server.js';

test('the demo data set is believable: students born 2008-2019, real semesters, nothing ends before it begins', async () => {
  const ref = await startForTest({ demoData: true });
  try {
    const docs = (name: string) => [...ref.store.collection(name).byId.values()].map((r) => r.doc);
    const births = docs('student').map((d) => Number(String(d.birthDate).slice(0, 4)));
    assert.ok(births.length >= 10 && births.every((y) => y >= 2008 && y <= 2019), `birth years ${births.join(', ')}`);
    const sessions = docs('session');
    assert.ok(sessions.some((s) => s.beginDate === '2024-08-26' && s.endDate === '2024-12-20' && String(s.termDescriptor).endsWith('#Fall Semester')));
    assert.ok(sessions.some((s) => s.beginDate === '2025-01-06' && s.endDate === '2025-05-30' && String(s.termDescriptor).endsWith('#Spring Semester')));
    const inverted: string[] = [];
    const visit = (v: unknown, where: string) => {
      if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${where}[${i}]`));
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.beginDate === 'string' && typeof o.endDate === 'string' && o.endDate < o.beginDate) inverted.push(where);
        for (const [k, x] of Object.entries(o)) visit(x, `${where}.${k}`);
      }
    };
    for (const r of model.resources) for (const d of docs(r.name)) visit(d, r.name);
    assert.deepEqual(inverted, []);
  } finally {
    await ref.close();
  }
});

test('the demo client of npm start reads a rostering world whose every link it can follow', async () => {
  const ref = await startReference({ overrides: { port: 0, rosteringPort: 0, demoData: true } });
  try {
    const basic = Buffer.from(`demo-client:${ref.settings.generatedDemoSecret!}`).toString('base64');
    const res = await fetch(`${ref.dataApiBaseUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    const { access_token: token } = (await res.json()) as { access_token: string };
    const get = async (path: string) => {
      const r = await fetch(`${ref.rosteringBaseUrl}/std/roster/rostering/v1p2/${path.replace(/^\//, '')}`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const hrefs = new Set<string>();
    const collect = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (typeof o.href === 'string' && typeof o.sourcedId === 'string') hrefs.add(o.href);
        Object.values(o).forEach(collect);
      }
    };
    for (const endpoint of ['orgs', 'academicSessions', 'classes', 'courses', 'enrollments', 'users', 'demographics']) {
      const { status, body } = await get(`${endpoint}?limit=1000`);
      assert.equal(status, 200, endpoint);
      const items = Object.values(body)[0] as unknown[];
      assert.ok(items.length > 0, `the demo client sees ${endpoint}`);
      collect(items);
    }
    const broken: string[] = [];
    for (const href of hrefs) {
      const path = href.replace(/^https?:\/\/[^/]+/, '').replace(/^.*\/rostering\/v1p2\//, '');
      if ((await get(path)).status !== 200) broken.push(href);
    }
    assert.ok(hrefs.size > 20, `${hrefs.size} links`);
    assert.deepEqual(broken, []);
  } finally {
    await ref.close();
  }
});
