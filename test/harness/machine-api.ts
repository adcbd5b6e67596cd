/** @module One call per integration test file: webhook server + CRDs + webhooks, torn down afterwards. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll } from 'vitest'
import { stringify } from 'yaml'
import type { ProviderSpecSchemas } from '../../src/api/shared/provider-spec'
import { createKubeClient } from '../../src/kube/dynamic-client'
import { createHttpTransport } from '../../src/kube/http-transport'
import type { KubeClient } from '../../src/kube/kube-client'
import { type InstalledApi, installApi } from './install-api'
import { ignoreNotFound, kubectl, testKubeConfig, uniqueName } from './kube'
import { startTestWebhookServer, type TestWebhookServer } from './webhook-server'

/** What a test file gets: the kube config, the webhook server and the installed API. */
export interface MachineApiContext {
  kc: KubeConfig
  webhook: TestWebhookServer
  api: InstalledApi
}

/**
 * Registers beforeAll/afterAll that start the webhook server and install the API, and returns
 * a getter for the context (valid inside tests).
 */
export function useMachineApi(
  options: { providerSchemas?: ProviderSpecSchemas } = {},
): () => MachineApiContext {
  let context: MachineApiContext | undefined
  beforeAll(async () => {
    const kc = testKubeConfig()
    const webhook = await startTestWebhookServer({ ...options, kubeConfig: kc })
    const api = await installApi(kc, webhook)
    context = { kc, webhook, api }
  })
  afterAll(async () => {
    await context?.api.uninstall()
    await context?.webhook.stop()
  })
  return () => {
    if (context === undefined) throw new Error('useMachineApi: used outside a test')
    return context
  }
}

/** A namespace shared by the tests of one file (created before them, deleted after them). */
export function useFileNamespace(kc: () => KubeConfig, prefix: string): () => string {
  let name: string | undefined
  beforeAll(async () => {
    name = uniqueName(prefix)
    await kc()
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name } } })
  })
  afterAll(async () => {
    if (name !== undefined) {
      await kc().makeApiClient(CoreV1Api).deleteNamespace({ name }).catch(ignoreNotFound)
    }
  })
  return () => {
    if (name === undefined) throw new Error('useFileNamespace: used outside a test')
    return name
  }
}

/** `kubectl apply -f` of `objects` as a user would type it; resolves with kubectl's output. */
export async function kubectlApply(objects: object[], extraArgs: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-apply-'))
  try {
    const file = join(dir, 'objects.yaml')
    writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'))
    return await kubectl(['apply', '-f', file, ...extraArgs])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The stderr of a kubectl command expected to fail (throws if it succeeds). */
export async function kubectlError(run: Promise<unknown>): Promise<string> {
  try {
    await run
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error)
  }
  throw new Error('kubectl succeeded but was expected to fail')
}

/** A KubeClient for the test control plane, created on first use and closed after the file. */
export function useKubeClient(api: () => MachineApiContext): () => KubeClient {
  let client: KubeClient | undefined
  afterAll(() => client?.close())
  return () => {
    client ??= createKubeClient(createHttpTransport(api().kc, () => {}))
    return client
  }
}
