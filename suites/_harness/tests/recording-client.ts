import type { DataClient } from '../fixtures.js';

/** A client that answers like an empty deployment and keeps every body posted. */
export function recordingClient(posted: { endpoint: string; body: Record<string, unknown> }[]): DataClient {
  let n = 0;
  const response = (status: number, json: unknown = {}, location = '') => ({
    status: () => status,
    json: async () => json,
    text: async () => JSON.stringify(json),
    headers: () => ({ location }),
  });
  return {
    get: async () => response(200, []),
    post: async (endpoint: string, body: Record<string, unknown>) => { posted.push({ endpoint, body }); return response(201, {}, `http://x/${endpoint}/${++n}`); },
    postNew: async (endpoint: string, body: Record<string, unknown>) => { posted.push({ endpoint, body }); return response(201, {}, `http://x/${endpoint}/${++n}`); },
    create: async (endpoint: string, body: Record<string, unknown>) => {
      posted.push({ endpoint, body });
      const id = String(++n);
      return { url: `http://x/${endpoint}/${id}`, id, location: `http://x/${endpoint}/${id}` };
    },
    track: () => {},
  } as unknown as DataClient;
}
