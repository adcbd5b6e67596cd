/**
 * @module TLS material from files, reloaded when it changes (cert-manager rotates the Secret and
 * the kubelet swaps the mounted files) so no restart is needed.
 */

import { unwatchFile, watchFile } from 'node:fs'
import { readFile } from 'node:fs/promises'
import type { Logger } from '../observability/logger'

/** PEM certificate chain and private key. */
export interface TlsMaterial {
  cert: string
  key: string
}

/** Where the certificate and key live. */
export interface TlsFiles {
  certFile: string
  keyFile: string
}

/** Reads both files; throws when either is missing. */
export async function readTlsMaterial(files: TlsFiles): Promise<TlsMaterial> {
  const [cert, key] = await Promise.all([
    readFile(files.certFile, 'utf8'),
    readFile(files.keyFile, 'utf8'),
  ])
  return { cert, key }
}

/** A running watch; `stop` ends it. */
export interface TlsWatch {
  /** Reads the files now and applies them; resolves true when applied. */
  reload(): Promise<boolean>
  stop(): void
}

/**
 * Polls both files (polling sees the kubelet's symlink swap; inotify on the old inode would not)
 * and calls `apply` with new material. A half-written pair (key and cert not matching yet) makes
 * `apply` throw; the error is logged and the previous material stays in use until the next change.
 */
export function watchTlsFiles(
  files: TlsFiles,
  apply: (material: TlsMaterial) => void,
  options: { logger: Logger; intervalMs?: number },
): TlsWatch {
  const reload = async (): Promise<boolean> => {
    try {
      apply(await readTlsMaterial(files))
      options.logger.info({ certFile: files.certFile }, 'TLS certificate reloaded')
      return true
    } catch (error) {
      options.logger.warn(
        { err: error, certFile: files.certFile },
        'TLS reload failed; keeping the previous certificate',
      )
      return false
    }
  }
  const onChange = () => void reload()
  const interval = options.intervalMs ?? 5_000
  watchFile(files.certFile, { interval, persistent: false }, onChange)
  watchFile(files.keyFile, { interval, persistent: false }, onChange)
  return {
    reload,
    stop: () => {
      unwatchFile(files.certFile, onChange)
      unwatchFile(files.keyFile, onChange)
    },
  }
}
