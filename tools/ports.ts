import { createServer } from 'node:net';

/** Whether `port` on loopback can be listened on now. */
function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * Blocks of consecutive free loopback ports, for tools that start references beside other runs:
 * from `start` upwards when given (a machine where runs share fixed port ranges), otherwise at
 * random between 20000 and 60000, away from the fixed ports (18080–18300) the test runs use.
 */
export function portBlocks(start?: number): (n: number) => Promise<number> {
  if (start !== undefined && !(Number.isInteger(start) && start > 0 && start < 65_000)) throw new Error(`${start} is not a port`);
  let next = start;
  return async (n) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const base = next ?? 20_000 + Math.floor(Math.random() * 40_000);
      if (next !== undefined) next += n;
      let free = true;
      for (let p = base; p < base + n && free; p++) free = await isFree(p);
      if (free) return base;
    }
    throw new Error(`no block of ${n} free ports found`);
  };
}

/** A loopback port free now (the system's choice), for a child told to listen on it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
