/**
 * @module Test doubles for the services an ActuatorContext carries: an in-memory Secret store, a
 * logger and event recorder that keep everything they are given, so tests can search the output
 * for secrets. (These are the caller's side of the port, not fakes of any provider.)
 */

import type { PermanentError, TransientError } from '../../../src/errors'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { Logger } from '../../../src/observability/logger'
import type { ActuatorContext, SecretRef } from '../../../src/providers/actuator'
import { testKubeConfig } from '../../harness/kube'

/** Everything a context recorded. */
export interface Recorded {
  logs: string[]
  events: { type: string; reason: string; message: string }[]
  /** Secret reads as `name/key`. */
  secretReads: string[]
}

function captureLogger(logs: string[], bindings: Record<string, unknown> = {}): Logger {
  const write = (level: string) => (obj: object, msg?: string) => {
    logs.push(JSON.stringify({ level, ...bindings, ...obj, msg }))
  }
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (more) => captureLogger(logs, { ...bindings, ...more }),
  }
}

/** Options of `testContext`. */
export interface TestContextOptions {
  providerSpec: unknown
  /** Secrets of the Machine's namespace: name -> key -> value. */
  secrets?: Record<string, Record<string, string>>
  credentialsSecretRef?: SecretRef
  userDataSecretRef?: SecretRef
  now?: () => Date
  /** The caller's Kubernetes client (default: a plain one to the test control plane). */
  kube?: KubeClient
}

/** An ActuatorContext over in-memory secrets, plus what it recorded. */
export function testContext(options: TestContextOptions): {
  ctx: ActuatorContext
  recorded: Recorded
} {
  const recorded: Recorded = { logs: [], events: [], secretReads: [] }
  const ctx: ActuatorContext = {
    providerSpec: options.providerSpec,
    credentialsSecretRef: options.credentialsSecretRef,
    userDataSecretRef: options.userDataSecretRef,
    secrets: {
      async readSecret(name, key) {
        recorded.secretReads.push(`${name}/${key}`)
        const value = options.secrets?.[name]?.[key]
        return value === undefined ? undefined : new TextEncoder().encode(value)
      },
    },
    logger: captureLogger(recorded.logs),
    events: {
      record(type, reason, message) {
        recorded.events.push({ type, reason, message })
      },
    },
    signal: AbortSignal.timeout(60_000),
    clock: { now: options.now ?? (() => new Date()) },
    kube: options.kube ?? createKubeClient(createHttpTransport(testKubeConfig(), () => {})),
  }
  return { ctx, recorded }
}

/** A provider's typed failure. */
type ProviderFailure = TransientError | PermanentError

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<ProviderFailure> {
  return (await promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error,
  )) as ProviderFailure
}
