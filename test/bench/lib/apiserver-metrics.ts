/**
 * @module Scrapes the apiserver's own `/metrics` with the admin kubeconfig (through kubectl, the
 * simplest client that already speaks its TLS) and returns `apiserver_request_total` by verb and
 * resource. Note: the apiserver counts a WATCH when it ends, so watches still open are not in it.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { type RequestCounts, requestCounts } from './apiserver-metrics-text'

const execFileAsync = promisify(execFile)

/** Where kubectl and the admin kubeconfig are (a ControlPlane has both). */
export interface ApiserverAccess {
  kubectlPath: string
  kubeconfigPath: string
}

/** The apiserver's request counts right now. */
export async function scrapeRequestCounts(access: ApiserverAccess): Promise<RequestCounts> {
  return requestCounts(await scrapeMetricsText(access))
}

/** The apiserver's whole Prometheus exposition right now. */
export async function scrapeMetricsText(access: ApiserverAccess): Promise<string> {
  const { stdout } = await execFileAsync(
    access.kubectlPath,
    ['--kubeconfig', access.kubeconfigPath, 'get', '--raw', '/metrics'],
    // The full exposition is a few MB (histograms by resource and verb).
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  )
  return stdout
}
