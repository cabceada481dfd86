import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The file operations a durable store uses, as one seam: tests replace single operations to
 * make a disk fail (full, read-only, gone) at an exact point, without timing or real damage.
 * Files are created 0600 and directories 0700: a store holds every client's records.
 */
export interface StoreFiles {
  makeDirectory(dir: string): void;
  exists(file: string): boolean;
  readText(file: string): string;
  list(dir: string): string[];
  /** Appends one line; on failure cuts off whatever part of it reached the file. */
  appendLine(file: string, text: string, fsync: boolean): void;
  /** Replaces a file all or nothing (temp file, rename); with fsync, file and directory reach the disk first. */
  replace(file: string, text: string, fsync: boolean): Promise<void>;
  /** The same, synchronously (start-up only: recovery rewrites a journal before anything else runs). */
  replaceSync(file: string, text: string, fsync: boolean): void;
  truncate(file: string, bytes: number): void;
  remove(file: string): void;
}

export const FILE_MODE = 0o600;
export const DIRECTORY_MODE = 0o700;

/**
 * How data reaches the disk (fsync), apart so that tests can see that it happens, and in which
 * order: the state file before its rename, its directory before any journal is removed.
 */
export const disk = {
  syncFile: (handle: FileHandle): Promise<void> => handle.sync(),
  syncFileSync: (fd: number): void => fsyncSync(fd),
  /** Flushes a directory's entries (a created or renamed file) to the disk. */
  syncDirectory(dir: string): void {
    const fd = openSync(dir, 'r');
    try { fsyncSync(fd); } finally { closeSync(fd); }
  },
};

export const nodeFiles: StoreFiles = {
  makeDirectory: (dir) => { mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE }); },
  exists: (file) => existsSync(file),
  readText: (file) => readFileSync(file, 'utf8'),
  list: (dir) => (existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir) : []),
  appendLine(file, text, fsync) {
    const fd = openSync(file, 'a', FILE_MODE);
    const size = fstatSync(fd).size;
    try {
      writeFileSync(fd, text);
      if (fsync) {
        disk.syncFileSync(fd);
        // A journal just created exists on the disk only once its directory entry does.
        if (size === 0) disk.syncDirectory(dirname(file));
      }
    } catch (err) {
      // A part of the line left behind would join the next line and damage it.
      try { ftruncateSync(fd, size); } catch { /* the error below is the one that matters */ }
      throw err;
    } finally {
      closeSync(fd);
    }
  },
  async replace(file, text, fsync) {
    const temp = `${file}.tmp`;
    const handle = await open(temp, 'w', FILE_MODE);
    try {
      await handle.writeFile(text);
      if (fsync) await disk.syncFile(handle);
    } catch (err) {
      await handle.close();
      await rm(temp, { force: true }).catch(() => undefined);
      throw err;
    }
    await handle.close();
    await rename(temp, file);
    if (fsync) disk.syncDirectory(dirname(file));
  },
  replaceSync(file, text, fsync) {
    const temp = `${file}.tmp`;
    const fd = openSync(temp, 'w', FILE_MODE);
    try {
      writeFileSync(fd, text);
      if (fsync) disk.syncFileSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
    if (fsync) disk.syncDirectory(dirname(file));
  },
  truncate: (file, bytes) => {
    const fd = openSync(file, 'r+');
    try { ftruncateSync(fd, bytes); } finally { closeSync(fd); }
  },
  remove: (file) => rmSync(file, { force: true }),
};
