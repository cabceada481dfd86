import { createHash } from 'node:crypto';
import { BlockList } from 'node:net';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Settings } from '../config/load.js';
import { InjectedFault } from '../http/boundary.js';
import { Problem } from '../http/problems.js';
import { Buckets, type Clock } from '../http/rate-limit.js';
import { provenSecret, verifySecret } from '../security/secrets.js';
import type { DataStore } from '../store/store.js';

/**
 * Administrative endpoints of the reference (not part of the specified API): take or drop the
 * snapshot that `Use-Snapshot: true` reads, and a digest of the store so that a suite run can
 * prove it left the store as it found it. Basic authentication with the configured admin
 * credential; without one configured they do not exist (404), nor for callers other than
 * loopback ones unless the configuration says so. A request that came through a proxy is no
 * loopback caller, even when the proxy runs on this machine: with `loopbackOnly`, one carrying
 * forwarding headers gets 404 too. Failed credential checks are throttled per source address
 * (429 before hashing); a secret this process already proved still passes, so guesses from
 * elsewhere cannot lock out the operator.
 */
export function adminRoutes(router: Router, settings: Settings, store: DataStore, clock: Clock = Date.now): void {
  const failures = new Buckets(settings.throttle.adminFailuresPerAddress, clock);
  const guard = async (ctx: Context) => {
    if (!settings.admin) throw new Problem('not-found');
    if (settings.admin.loopbackOnly && (!isLoopback(ctx.req.socket.remoteAddress) || forwarded(ctx))) throw new Problem('not-found');
    const [scheme, value] = ctx.get('authorization').split(' ');
    const [key, secret] = Buffer.from(value ?? '', 'base64').toString('utf8').split(':');
    const offered = scheme?.toLowerCase() === 'basic' && key === settings.admin.key && !!secret;
    if (offered && provenSecret(secret, settings.admin.secretHash)) return;
    const address = ctx.req.socket.remoteAddress ?? '';
    const wait = failures.wait(address);
    if (wait) throw new Problem('too-many-requests', { errors: [`Too many failed admin credential checks; retry after ${wait} s.`] }, { 'Retry-After': String(wait) });
    if (!offered || !(await verifySecret(secret, settings.admin.secretHash))) {
      failures.take(address);
      throw new Problem('security:authentication', { errors: ['Admin credentials are required.'] });
    }
  };
  router.post('/admin/snapshot', async (ctx) => {
    await guard(ctx);
    store.snapshot = store.clone();
    ctx.status = 201;
    ctx.body = { changeVersion: store.snapshot.newestChangeVersion };
  });
  router.delete('/admin/snapshot', async (ctx) => {
    await guard(ctx);
    store.snapshot = undefined;
    ctx.status = 204;
  });
  // Fault injection: lets a suite see the body of a 500 (decisions #7) on demand.
  router.post('/admin/fault', async (ctx) => {
    await guard(ctx);
    throw new InjectedFault('fault injected through /admin/fault');
  });
  router.get('/admin/digest', async (ctx) => {
    await guard(ctx);
    ctx.body = digest(store);
  });
}

/** Records by resource, id and etag, hashed: equal digests mean the same content. */
export function digest(store: DataStore): { records: number; sha256: string } {
  const lines = [...store.records()].map((r) => `${r.resource}/${r.id}/${r.etag}`).sort();
  return { records: lines.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  // An IPv4 caller on a dual-stack socket appears as ::ffff:a.b.c.d.
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.includes(':') ? loopback.check(v4, 'ipv6') : loopback.check(v4, 'ipv4');
}

/** Headers a proxy adds to say whom it forwards for: their presence means the caller is not the socket's peer. */
const FORWARDING = new Set(['forwarded', 'via', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip']);

function forwarded(ctx: Context): boolean {
  return Object.keys(ctx.req.headers).some((name) => FORWARDING.has(name) || name.startsWith('x-forwarded-'));
}
