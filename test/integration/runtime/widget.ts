/**
 * @module A test kind for the runtime: `Widget` (group runtime-test.machine-api.dev) whose
 * reconcile keeps `spec.replicas` child ConfigMaps with deterministic names and writes
 * `status.children` last with a resourceVersion precondition. Independent of the machine-api CRDs.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll } from 'vitest'
import { systemClock } from '../../../src/clock'
import { PermanentError } from '../../../src/errors'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { hasKubeReason } from '../../../src/kube/errors'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { ObjectKey } from '../../../src/kube/object-key'
import { coreTypes, type KubeObject, type ResourceType } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import type { Controller, ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { isStalled } from '../../../src/reconcile/runtime/stalled'
import { writeStatus } from '../../../src/reconcile/runtime/status-write'
import { testKubeConfig, waitFor } from '../../harness/kube'

export const widgetType: ResourceType = {
  group: 'runtime-test.machine-api.dev',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
}

const crdType: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
}

/** A KubeClient for the test control plane. */
export function testKube(kc: KubeConfig): KubeClient {
  return createKubeClient(createHttpTransport(kc, () => {}))
}

/** Deps for reconciles in tests. */
export function testDeps(kube: KubeClient): ReconcileDeps {
  return { kube, clock: systemClock, log: silentLogger(), fieldManager: 'runtime-test' }
}

/** Creates the Widget CRD once per control plane and waits until it is served. */
export async function ensureWidgetCrd(kube: KubeClient): Promise<void> {
  const crd = {
    metadata: { name: `${widgetType.plural}.${widgetType.group}` },
    spec: {
      group: widgetType.group,
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    replicas: { type: 'integer' },
                    poison: { type: 'boolean' },
                    // Lets a Widget play a selecting kind (like a MachineHealthCheck) in mapper tests.
                    selector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
        },
      ],
    },
  }
  await kube.create(crdType, crd).catch((error: unknown) => {
    if (!hasKubeReason(error, 'AlreadyExists')) throw error
  })
  await waitFor('Widget CRD served', async () => {
    await kube.list(widgetType, { namespace: 'default', limit: 1 })
    return true
  })
}

/** A Widget manifest. */
export function widget(namespace: string, name: string, replicas: number): KubeObject {
  return { metadata: { namespace, name }, spec: { replicas } }
}

/** Child names are deterministic: two concurrent creates of one replica collide on 409. */
export function childName(parent: string, index: number): string {
  return `${parent}-child-${index}`
}

/** Pure plan: which children to create and delete, given the replicas and observed children. */
export function planWidget(
  replicas: number,
  parent: string,
  observed: string[],
): { create: string[]; remove: string[] } {
  const desired = Array.from({ length: replicas }, (_, i) => childName(parent, i))
  return {
    create: desired.filter((n) => !observed.includes(n)),
    remove: observed.filter((n) => !desired.includes(n)),
  }
}

/** The Widget controller; `onRun` observes each reconcile (for counting). */
export function widgetController(onRun: (key: ObjectKey) => void = () => {}): Controller {
  return {
    kind: 'Widget',
    resource: widgetType,
    async reconcile(deps, key) {
      onRun(key)
      const ref = { namespace: key.namespace, name: key.name }
      const obj = await deps.kube.get(widgetType, ref)
      if (!obj || isStalled(obj)) return {}
      const spec = obj.spec as { replicas?: number; poison?: boolean }
      if (spec.poison) throw new PermanentError('PoisonSpec', 'spec.poison is set')
      const children = await deps.kube.list(coreTypes.configMap, {
        namespace: key.namespace,
        labelSelector: `widget=${key.name}`,
      })
      const plan = planWidget(
        spec.replicas ?? 0,
        key.name,
        children.items.map((c) => c.metadata?.name ?? ''),
      )
      for (const name of plan.create) {
        await deps.kube
          .create(coreTypes.configMap, {
            metadata: {
              namespace: key.namespace,
              name,
              labels: { widget: key.name },
              ownerReferences: [
                {
                  apiVersion: `${widgetType.group}/${widgetType.version}`,
                  kind: 'Widget',
                  name: key.name,
                  uid: obj.metadata?.uid ?? '',
                  controller: true,
                },
              ],
            },
            data: { parent: key.name },
          })
          .catch((error: unknown) => {
            // Someone (a concurrent reconcile) created it first: the desired state holds.
            if (!hasKubeReason(error, 'AlreadyExists')) throw error
          })
      }
      for (const name of plan.remove) {
        await deps.kube.delete(coreTypes.configMap, { namespace: key.namespace, name })
      }
      await writeStatus(deps.kube, widgetType, {
        observed: obj,
        status: { children: spec.replicas ?? 0, observedGeneration: obj.metadata?.generation },
      })
      return {}
    },
  }
}

/** A Widget's converged state: its children names and status, for comparing runs. */
export async function widgetState(
  kube: KubeClient,
  namespace: string,
  name: string,
): Promise<{ children: string[]; status: unknown }> {
  const obj = await kube.get(widgetType, { namespace, name })
  const children = await kube.list(coreTypes.configMap, {
    namespace,
    labelSelector: `widget=${name}`,
  })
  return {
    children: children.items.map((c) => c.metadata?.name ?? '').sort(),
    status: obj?.status,
  }
}

/** True when the Widget has its replicas as children and a status for its generation. */
export async function converged(
  kube: KubeClient,
  namespace: string,
  name: string,
): Promise<boolean> {
  const obj = await kube.get(widgetType, { namespace, name })
  const status = obj?.status as { children?: number; observedGeneration?: number } | undefined
  const replicas = (obj?.spec as { replicas?: number } | undefined)?.replicas ?? 0
  if (status?.observedGeneration !== obj?.metadata?.generation || status?.children !== replicas) {
    return false
  }
  const state = await widgetState(kube, namespace, name)
  return state.children.length === replicas
}

/**
 * A Kubernetes client (and its config) for one test file, with the Widget CRD in place before the
 * first test and the client closed after the last.
 */
export function useWidgetKube(): { kc: KubeConfig; kube: KubeClient } {
  const kc = testKubeConfig()
  const kube = testKube(kc)
  beforeAll(() => ensureWidgetCrd(kube))
  afterAll(() => kube.close())
  return { kc, kube }
}
