/**
 * A V8 CPU profile of the server child it runs in, started and stopped by the orchestrator
 * (IPC commands `profileStart` and `profileStop`). Shared by the reference and the baselines, so
 * a stage of the reference's request can be set against the same stage of bare Koa.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Session } from 'node:inspector/promises';
import { SourceMap } from 'node:module';

let profiler: Session | undefined;

export function profileCommands() {
  return {
    async profileStart() {
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.post('Profiler.start');
      return null;
    },

    async profileStop(msg: Record<string, unknown>) {
      if (!profiler) throw new Error('profiler not started');
      const { profile } = await profiler.post('Profiler.stop');
      await mapToSources(profiler, profile as unknown as { nodes: ProfNode[] });
      profiler.disconnect();
      profiler = undefined;
      const file = String(msg.file);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      return { file };
    },
  };
}

/**
 * tsx runs transpiled code: profile positions are rewritten to the TypeScript sources through
 * each project script's inline source map (fetched from V8), so summaries name real lines.
 */
interface ProfNode { callFrame: { scriptId: string; url: string; lineNumber: number; columnNumber: number }; positionTicks?: { line: number; ticks: number }[] }
async function mapToSources(session: Session, profile: { nodes: ProfNode[] }): Promise<void> {
  await session.post('Debugger.enable');
  const maps = new Map<string, SourceMap | null>();
  const oneLine = new Set<string>();
  try {
    for (const node of profile.nodes) {
      const f = node.callFrame;
      if (!f.url.startsWith('file://') || f.url.includes('/node_modules/') || f.lineNumber < 0) continue;
      let map = maps.get(f.scriptId);
      if (map === undefined) {
        map = null;
        try {
          const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: f.scriptId });
          // tsx emits each module on very few lines: line-level ticks say nothing there.
          if (scriptSource.split('\n').length < 10) oneLine.add(f.scriptId);
          const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(scriptSource);
          if (m) map = new SourceMap(JSON.parse(Buffer.from(m[1], 'base64').toString('utf8')));
        } catch { /* no map: keep generated positions */ }
        maps.set(f.scriptId, map);
      }
      if (!map) continue;
      const e = map.findEntry(f.lineNumber, f.columnNumber) as { originalLine?: number; originalColumn?: number };
      if (typeof e.originalLine === 'number') { f.lineNumber = e.originalLine; f.columnNumber = e.originalColumn ?? 0; }
      // Line-level ticks (1-based generated lines) to 1-based source lines.
      if (oneLine.has(f.scriptId)) { delete node.positionTicks; continue; }
      for (const t of node.positionTicks ?? []) {
        const p = map.findEntry(t.line - 1, 0) as { originalLine?: number };
        if (typeof p.originalLine === 'number') t.line = p.originalLine + 1;
      }
    }
  } finally {
    await session.post('Debugger.disable');
  }
}
