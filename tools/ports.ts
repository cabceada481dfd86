import { readFileSync } from 'node:fs';
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
 * The first port the system hands out to outgoing connections (Linux's ip_local_port_range;
 * 32768, its default, elsewhere). A port above it may be taken by a client's connection between
 * the check and the listen: the suites open thousands.
 */
export function ephemeralFloor(read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): number {
  try {
    const low = Number(read().trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * Blocks of consecutive free loopback ports, for tools that start references beside other runs:
 * from `start` upwards when given (a machine where runs share fixed port ranges), otherwise at
 * random from 20000 up to the ephemeral range (ephemeralFloor), away from the fixed ports
 * (18080–18300) the test runs use. Random blocks once reached 60000, and the reference's "in use"
 * then killed mutants that a family run had not judged (tools/mutation/suites/outcome.ts).
 */
export function portBlocks(start?: number): (n: number) => Promise<number> {
  if (start !== undefined && !(Number.isInteger(start) && start > 0 && start < 65_000)) throw new Error(`${start} is not a port`);
  let next = start;
  // A system handing out nearly every port (a floor under 21000) still leaves 20000–21000.
  const top = Math.max(ephemeralFloor(), 21_000);
  return async (n) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const base = next ?? 20_000 + Math.floor(Math.random() * (top - n - 20_000));
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
