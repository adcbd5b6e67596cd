/**
 * @module What the two serving commands (`worker`, `reconcile`) share: settings from flags and
 * environment, the providers and controllers they select, a service started on them, and a stop
 * on SIGTERM/SIGINT.
 */
import { machineApiMappers, watchedTypes } from '../bus/machine-api-mappers'
import { createDeps, type RuntimeDeps, type RuntimeSettings } from '../deps'
import type { ProviderRegistry } from '../providers/registry'
import type { Controller, ReconcileDeps } from '../reconcile/runtime/controller'
import { createRunner } from '../reconcile/runtime/runner'
import type { CliCommand } from './command'
import { runtimeControllers } from './controllers'
import { loggedInstallationOwner } from './installation-owner'
import { parseRuntimeSettings } from './runtime-settings'
import { stopOnSignals } from './signals'

/** A started worker or reconcile function: its HTTP port and how to stop it. */
export interface RuntimeService {
  port: number
  stop(): Promise<void>
}

/** Starts a service that reconciles with `controllers`. */
export type StartRuntimeService = (
  deps: RuntimeDeps,
  settings: RuntimeSettings,
  controllers: readonly Controller<ReconcileDeps>[],
  /** For what only one service reads (the worker's EC2 notice source); none when not given. */
  env?: NodeJS.ProcessEnv,
  /** The controllers' providers, for passes beside the reconciles (the status-check pass). */
  providers?: ProviderRegistry,
) => Promise<RuntimeService>

/** The runner over `controllers` and what the transports need to feed it. */
export function runtimeWiring(
  deps: RuntimeDeps,
  controllers: readonly Controller<ReconcileDeps>[],
) {
  const runner = createRunner({ controllers, deps, metrics: deps.metrics })
  return {
    runner,
    mappers: machineApiMappers(runner.kinds()),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
  }
}

/** `run` of a command that serves until SIGTERM/SIGINT. */
export function serveRuntime(options: {
  /** The logger's service name. */
  service: string
  /** Whether the command takes --bus. */
  bus?: boolean
  start: StartRuntimeService
}): CliCommand['run'] {
  return async (values, io) => {
    const settings = parseRuntimeSettings(values, io.env, { bus: options.bus ?? false })
    const deps = createDeps(options.service)
    const owner = await loggedInstallationOwner(deps, io.env)
    const { controllers, providers } = runtimeControllers(settings, io.env, owner)
    const service = await options.start(deps, settings, controllers, io.env, providers)
    stopOnSignals(async (signal) => {
      deps.log.info({ signal }, 'stopping')
      await service.stop().finally(() => deps.close())
    })
    return 'running'
  }
}
