/**
 * @module `machine-api sweep`: the one-shot sweep (CronJob): publishes every key to JetStream when
 * NATS_URL is set, else reconciles each here; then the orphan-instance sweep. Exits 1 when a kind
 * could not be listed.
 */
import { z } from 'zod'
import { createDeps } from '../../deps'
import { sweepOrphanInstances } from '../../reconcile/machine-class/orphan-sweep'
import type { CliCommand } from '../command'
import { parseConfig, sourced } from '../config'
import { runtimeControllers } from '../controllers'
import { sweepOnce } from '../entry/sweep-once'
import { controllersFlag, parseRuntimeSettings, runtimeEnvHelp } from '../runtime-settings'

const orphanSchema = z.object({
  orphans: z.enum(['report', 'terminate', 'off']).default('report'),
})

/** `sweep`: the same process as `functions/sweep.ts`. */
export const sweepCommand: CliCommand = {
  name: 'sweep',
  summary: 'sweep every object once (CronJob), then look for orphaned instances',
  description:
    'Lists every selected kind page by page and enqueues each object: to JetStream when $NATS_URL is set, else reconciled in this process. Then the orphan sweep reports (or terminates) provider instances tagged as ours that no Machine owns. Exits 1 when a kind could not be listed.',
  flags: {
    controllers: controllersFlag,
    orphans: {
      type: 'string',
      value: 'report|terminate|off',
      description: 'what to do with orphaned instances (default report; $ORPHAN_SWEEP)',
    },
  },
  env: { ORPHAN_SWEEP: 'default of --orphans', ...runtimeEnvHelp },
  async run(values, io) {
    const settings = parseRuntimeSettings(values, io.env)
    const { orphans } = parseConfig(orphanSchema, {
      orphans: sourced(values, io.env, { flag: 'orphans', env: 'ORPHAN_SWEEP' }),
    })
    const deps = createDeps('machine-api-sweep')
    try {
      const { providers, controllers } = runtimeControllers(settings, io.env)
      const report = await sweepOnce(deps, settings, controllers)
      if (orphans !== 'off') {
        await sweepOrphanInstances({
          kube: deps.kube,
          providers,
          log: deps.log,
          fieldManager: deps.fieldManager,
          now: () => deps.clock.now(),
          terminate: orphans === 'terminate',
        })
      }
      await providers.close()
      return report.failedKinds.length > 0 ? 1 : 0
    } finally {
      deps.close()
    }
  },
}
