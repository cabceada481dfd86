/**
 * Baseline servers, run in their own child process: `raw` (node:http) or `koa` (bare Koa, no
 * router, the reference's own body reading). Both answer GET <path> with a pre-serialised payload
 * taken from the reference (same bytes as the reference's responses) and POST /echo by reading
 * the body, JSON.parse and JSON.stringify back. Profiled like the reference (`--profile=koa-get-item`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { parseJson, readText } from '../../reference/http/body.js';
import { serve } from '../ipc.js';
import { profileCommands } from '../profiler.js';

const kind = process.argv[2];
let server: Server | undefined;

function rawHandler(payloads: Map<string, Buffer>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
      });
      return;
    }
    const body = payloads.get(req.url!.split('?')[0]);
    if (!body) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  };
}

function koaApp(payloads: Map<string, Buffer>): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'POST') {
      const body = parseJson(await readText(ctx));
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = JSON.stringify(body);
      return;
    }
    const body = payloads.get(ctx.path);
    if (!body) return; // 404
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  });
  return app;
}

serve({
  async start(msg) {
    const payloads = new Map(Object.entries(msg.payloads as Record<string, string>).map(([p, b]) => [p, Buffer.from(b)]));
    const handler = kind === 'koa' ? koaApp(payloads).callback() : rawHandler(payloads);
    server = createServer(handler);
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(0, '127.0.0.1', () => resolve());
    });
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  },
  cpu() {
    return process.cpuUsage();
  },
  ...profileCommands(),
  stop() {
    server?.closeAllConnections();
    server?.close();
  },
});
