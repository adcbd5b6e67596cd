/**
 * @module The bundled webhook (`node dist/webhook.js`) as a child process on 127.0.0.1 over TLS,
 * with a throwaway CA: what the webhook and list-conversion benchmarks measure, and what serves
 * the CRD conversion for every benchmark that installs the API.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../harness/controlplane/free-port'
import { generateCertificates } from '../../harness/webhook-server'
import { type StartedProcess, startProcess, waitUntilServing } from './process-timer'

/** The repository root (test/bench/lib is three levels below). */
export const repoRoot = join(import.meta.dirname, '..', '..', '..')

/** Certificates for 127.0.0.1 in a fresh directory. */
export interface Certificates {
  dir: string
  certFile: string
  keyFile: string
  /** CA PEM, to trust the server. */
  ca: Buffer
  /** Base64 of the CA PEM, for caBundle fields. */
  caBundle: string
  remove(): void
}

/** Makes a CA and a serving certificate for 127.0.0.1 (openssl). */
export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-bench-tls-'))
  generateCertificates(dir)
  const ca = readFileSync(join(dir, 'ca.crt'))
  return {
    dir,
    certFile: join(dir, 'tls.crt'),
    keyFile: join(dir, 'tls.key'),
    ca,
    caBundle: ca.toString('base64'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A serving HTTPS child process. */
export interface HttpsChild {
  url: string
  process: StartedProcess
  /** Milliseconds from spawn to the first 200 of /readyz. */
  readyMs: number
  stop(): Promise<void>
}

export interface WebhookChildOptions {
  certs: Certificates
  /** For the MachineClass lookup (warnings only). */
  kubeconfigPath?: string
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[]
  /** The node binary; default: the one running the bench. */
  node?: string
  /** Extra environment (e.g. LOG_LEVEL); default: the production defaults. */
  env?: NodeJS.ProcessEnv
}

/** Starts `node dist/webhook.js` on a free port and waits until /readyz answers. */
export async function startWebhookChild(options: WebhookChildOptions): Promise<HttpsChild> {
  const script = join(repoRoot, 'dist', 'webhook.js')
  return await startHttpsChild(script, options)
}

/** Starts `node <script>` with the webhook's TLS/port variables; waits until /readyz answers. */
export async function startHttpsChild(
  script: string,
  options: WebhookChildOptions,
  scriptArgs: string[] = [],
): Promise<HttpsChild> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WEBHOOK_HOST: '127.0.0.1',
    WEBHOOK_PORT: String(port),
    WEBHOOK_CERT_FILE: options.certs.certFile,
    WEBHOOK_KEY_FILE: options.certs.keyFile,
    ...(options.kubeconfigPath ? { KUBECONFIG: options.kubeconfigPath } : {}),
    ...options.env,
  }
  const startedAt = performance.now()
  const child = startProcess(
    options.node ?? process.execPath,
    [...(options.nodeArgs ?? []), script, ...scriptArgs],
    {
      env,
      cwd: repoRoot,
    },
  )
  const url = `https://127.0.0.1:${port}`
  try {
    const readyMs = await waitUntilServing(child, `${url}/readyz`, {
      startedAt,
      ca: options.certs.ca,
    })
    return { url, process: child, readyMs, stop: () => child.stop() }
  } catch (error) {
    await child.stop()
    throw error
  }
}
